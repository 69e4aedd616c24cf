import Foundation
import TestSupport
import Testing

/// `framedump dissector` on the command line: every preset and every kind of layout gets a
/// dissector (tshark runs them in `DissectorConformanceTests`); names that could clash with a
/// protocol built into Wireshark are refused, saying why.
struct DissectorEndToEndTests {
    @Test(arguments: ["fefd", "h12", "u16", "u32", "tls", "varint", "lines", "mqtt",
                      "len:u8 ; length=len*4", "v:b1 w:b7 len:u8", "hl:u8 bl:u16 ; length=hl*4+bl+2 counts=frame",
                      "delim=##,\\r\\n keepdelim=yes max=100", "a:varint3 len:varint"])
    func everyLayoutGetsADissector(_ format: String) throws {
        let run = try FrameDumpProcess.run(["dissector", "--format", format, "--port", "7100"])
        #expect(run.status == 0, "\(run)")
        // A delimiter format reassembles by itself, from the decoder's state it keeps.
        let delimited = format == "lines" || format.hasPrefix("delim=")
        let reassembly = delimited ? "pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT" : "dissect_tcp_pdus(tvb, tree, 1, pdu_len, dissect_pdu)"
        #expect(run.stdout.contains(reassembly) && run.stdout.contains("dissect_tcp_pdus") != delimited, "\(run.stdout.prefix(500))")
        #expect(run.stdout.contains("DissectorTable.get(\"tcp.port\"):add(7100, proto)"))
    }

    @Test func defaultNamesCarryThePrefix() throws {
        let tls = try FrameDumpProcess.run(["dissector", "--format", "tls", "--port", "443"])
        #expect(tls.status == 0 && tls.stdout.contains(#"Proto("fd_tls""#) && tls.stdout.contains(#""fd_tls.type""#), "\(tls)")
        let spec = try FrameDumpProcess.run(["dissector", "--format", "len:u16", "--port", "7000"])
        #expect(spec.status == 0 && spec.stdout.contains(#"Proto("fd_frames""#), "\(spec)")
    }

    @Test(arguments: ["tls", "mqtt", "h12", "framedump"])
    func namesWithoutThePrefixAreRefused(_ name: String) throws {
        let run = try FrameDumpProcess.run(["dissector", "--format", "h12", "--name", name])
        #expect(run.status == 1 && run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains("--name '\(name)': a dissector name starts with 'fd_' so it can never clash with a protocol built into Wireshark"), "\(run)")
        #expect(run.stderr.contains("try --name fd_\(name)"), "\(run)")
    }

    @Test(arguments: ["fd_", "fd_H12", "fd_a-b", "fd_a.b"])
    func namesWiresharkCannotFilterOnAreRefused(_ name: String) throws {
        let run = try FrameDumpProcess.run(["dissector", "--format", "h12", "--name", name])
        #expect(run.status == 1 && run.stderr.contains("expected 'fd_' then lowercase letters, digits or '_'"), "\(run)")
    }
}
