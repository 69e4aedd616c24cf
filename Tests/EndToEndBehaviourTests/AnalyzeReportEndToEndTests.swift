import Foundation
import TestSupport
import Testing

/// `framedump analyze --report`: the HTML page rendered by headless Chromium, as a person would
/// open it: it draws (a screenshot with ink on it), has the diagrams the capture calls for (from
/// the generator's log: 3 histograms, a timeline per client host, a chart per session type, an
/// overview and a ladder per connection with frames, i.e. per established one), pages through
/// many connections and zooms over long ones, and logs no console error; the file stands alone
/// (no outside asset).
@Suite(.requires(.chromium), .requires(.python3)) struct AnalyzeReportEndToEndTests {
    /// `analyze --report` of a fixture into a new directory (the caller removes it): the
    /// directory and the page's path.
    static func report(_ fixture: String, scale: Double = 1) throws -> (directory: URL, page: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("analyze-report-\(fixture)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let page = directory.appendingPathComponent("report.html").path
        let run = try FrameDumpProcess.run(["analyze", "--time-scale", "\(scale)", "--report", page, "Fixtures/analyze/\(fixture).pcap"])
        #expect(run.status == 0, "\(run)")
        return (directory, page)
    }

    @Test func wellBehavedReportRendersItsDiagrams() throws {
        let (directory, page) = try Self.report("well-behaved", scale: 0.05)
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("@import"), "the page loads nothing from outside")

        let log = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/well-behaved.log.json"))) as? [String: Any])
        let events = try #require(log["events"] as? [[String: Any]])
        let established = events.count { $0["what"] as? String == "connected" }
        let sessionTypes = Set(events.compactMap { $0["what"] as? String == "msg" ? $0["session"] as? String : nil })
        // Histograms, the client's timeline, a chart per session type, an overview and a ladder per connection.
        let expectedDiagrams = 3 + 1 + sessionTypes.count + 2 * established

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

    /// Every connection is reachable page by page: 25 connections (the generator's count) as
    /// pages of 10, opened at `#page=N` and `#conn=N`, each connection with its overview and
    /// ladder, and no console error on any page.
    @Test func manyConnectionsArePaged() throws {
        let (directory, page) = try Self.report("hb-many-connections")
        defer { try? FileManager.default.removeItem(at: directory) }
        let expectations = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/hb-many-connections.expected.json"))) as? [String: Any])
        let connections = try #require(expectations["connections"] as? Int)
        let frames = try #require(expectations["frames_per_connection"] as? Int)
        let perPage = 10
        let pages = (connections + perPage - 1) / perPage
        let chromium = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory.path)/profile", "--enable-logging=stderr", "--v=0"]
        var seen = Set<Int>()
        for number in 1...pages {
            let dom = try ExternalProgram.run("sh", ["-c", "exec chromium \"$@\" 2>&1", "chromium"] + chromium + ["--dump-dom", "file://\(page)#page=\(number)"])
            #expect(dom.status == 0)
            let consoleLines = dom.stdout.split(separator: "\n").filter { $0.contains(":CONSOLE") }
            #expect(consoleLines.isEmpty, "page \(number): \(consoleLines)")
            let onPage = min(perPage, connections - (number - 1) * perPage)
            #expect(dom.stdout.contains("page \(number) of \(pages)"), "page \(number)")
            #expect(dom.stdout.components(separatedBy: "class=\"ladder\"").count - 1 == onPage, "page \(number)")
            #expect(dom.stdout.components(separatedBy: "class=\"overview\"").count - 1 == onPage, "page \(number)")
            #expect(dom.stdout.components(separatedBy: ", \(frames) frames, closed by client</h3>").count - 1 == onPage, "page \(number)")
            for part in dom.stdout.components(separatedBy: "<div class=\"conn\" id=\"conn-").dropFirst() {
                if let number = Int(part.prefix { $0.isNumber }) { seen.insert(number) }
            }
        }
        #expect(seen == Set(1...connections), "connections reachable: \(seen.sorted())")
        // A connection's address opens the page that holds it.
        let direct = try ExternalProgram.run("chromium", Array(chromium.dropLast(2)) + ["--dump-dom", "file://\(page)#conn=\(perPage + 2)"])
        #expect(direct.stdout.contains("page 2 of \(pages)") && direct.stdout.contains("id=\"conn-\(perPage + 2)\""))
    }

    /// A long connection (an hour of heartbeats, as built): its overview spans the whole hour
    /// and its rows are kept window by window over it, not just the first minutes.
    @Test func longConnectionZoomsOverItsSpan() throws {
        let (directory, page) = try Self.report("hb-hour-of-heartbeats")
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let start = try #require(html.range(of: "id=\"ladder-data\">")), end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try #require(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        let conn = try #require((data["conns"] as? [[String: Any]])?.first)
        // Windows [index, client → server, server → client, marked], only those with entries.
        let rows = try #require(conn["r"] as? [[Any]]), windows = try #require(conn["h"] as? [[Int]])
        let width = try #require(conn["w"] as? Double)
        let expectations = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: FrameDumpProcess.packageRoot
            .appendingPathComponent("Fixtures/analyze/hb-hour-of-heartbeats.expected.json"))) as? [String: Any])
        let pings = try #require((expectations["pong_timeout"] as? [String: Double])?["count"])
        // Every frame is counted in a window: each ping and its pong, the msgs and acks.
        #expect(windows.reduce(0) { $0 + $1[1] + $1[2] } >= Int(pings) * 2)
        let lastWindow = try #require(windows.last?.first)
        #expect(Double(lastWindow + 1) * width >= 3600, "windows cover the hour: \(lastWindow + 1) × \(width) s")
        let lastRow = try #require(rows.last?.first as? Double)
        #expect(lastRow > 3000, "rows are kept to the end of the hour: the last at \(lastRow) s")
        #expect(rows.count <= 64 * 16)
    }
}
