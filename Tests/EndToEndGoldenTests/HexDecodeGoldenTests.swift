import TestSupport
import Testing

/// `framedump decode` on every hex fixture, against the expected files beside it.
@Suite struct HexDecodeGoldenTests {
    @Test(arguments: HexFixture.all)
    func jsonLinesMatchTheGenerator(_ fixture: HexFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--json"] + fixture.arguments + [fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("jsonl"))
        try GoldenFile.check(result.stderrAndStatus, against: fixture.expectedPath("stderr"))
    }

    @Test(arguments: HexFixture.all)
    func humanOutputMatchesTheGolden(_ fixture: HexFixture) throws {
        let result = try FrameDumpProcess.run(["decode", "--color", "never"] + fixture.arguments + [fixture.path])
        try GoldenFile.check(result.stdout, against: fixture.expectedPath("txt"))
        try GoldenFile.check(result.stderrAndStatus, against: fixture.expectedPath("stderr"))
    }

    @Test func fixturesExist() {
        #expect(HexFixture.all.count >= 10)
    }
}
