import Foundation
import TestSupport
import Testing

/// `framedump analyze --report`: the HTML page rendered by headless Chromium, as a person would
/// open it: it draws (a screenshot with ink on it), has the diagrams the capture calls for (from
/// the generator's log: 3 histograms, a timeline per client host, a ladder per connection with
/// frames, i.e. per established one), and logs no console error; the file stands alone (no outside asset).
@Suite(.requires(.chromium), .requires(.python3)) struct AnalyzeReportEndToEndTests {
    @Test func wellBehavedReportRendersItsDiagrams() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-report-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html").path
        let run = try FrameDumpProcess.run(["analyze", "--time-scale", "0.05", "--report", page, "Fixtures/analyze/well-behaved.pcap"])
        #expect(run.status == 0, "\(run)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("@import"), "the page loads nothing from outside")

        let log = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/well-behaved.log.json"))) as? [String: Any])
        let events = try #require(log["events"] as? [[String: Any]])
        let established = events.count { $0["what"] as? String == "connected" }
        let sessionTypes = Set(events.compactMap { $0["what"] as? String == "msg" ? $0["session"] as? String : nil })
        // Histograms, the client's timeline, a chart per session type, a ladder per connection.
        let expectedDiagrams = 3 + 1 + sessionTypes.count + established

        let chromium = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory.path)/profile"]
        let dom = try ExternalProgram.run("chromium", chromium + ["--dump-dom", "file://\(page)"])
        #expect(dom.status == 0)
        #expect(dom.stdout.components(separatedBy: "<svg").count - 1 == expectedDiagrams, "svg elements in the rendered DOM")
        #expect(dom.stdout.components(separatedBy: "class=\"ladder\"").count - 1 == established)
        #expect(dom.stdout.components(separatedBy: "class=\"sessions\"").count - 1 == sessionTypes.count)

        let screenshot = "\(directory.path)/report.png"
        let logged = try ExternalProgram.run("sh", ["-c", "exec chromium \"$@\" 2>&1", "chromium"] + chromium + [
            "--enable-logging=stderr", "--v=0", "--screenshot=\(screenshot)", "--window-size=1000,1400", "file://\(page)",
        ])
        #expect(logged.status == 0)
        let consoleLines = logged.stdout.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(consoleLines.isEmpty, "console messages: \(consoleLines)")
        let coverage = try ExternalProgram.run(FrameDumpProcess.packageRoot.appendingPathComponent("scripts/png-coverage").path, [screenshot])
        let figures = try #require(JSONSerialization.jsonObject(with: Data(coverage.stdout.utf8)) as? [String: Int], "\(coverage.stdout)")
        #expect(figures["width"] == 1000 && figures["height"] == 1400)
        // Text, bars and arrows: far more than a blank page's nothing, in many colours.
        #expect((figures["inked"] ?? 0) > 1000 * 1400 / 20, "\(figures)")
        #expect((figures["colours"] ?? 0) > 10, "\(figures)")
    }
}
