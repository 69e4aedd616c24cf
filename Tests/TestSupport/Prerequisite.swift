import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Something a test needs from the machine rather than from the code under test: a program it
/// runs, or the privileges to capture packets. A test names it with the ``requires(_:)`` trait.
package struct Prerequisite: Sendable, CustomStringConvertible {
    /// What is missing and how to get it, as the skip or the failure says it.
    package let description: String
    package let isMet: @Sendable () -> Bool

    /// The program `name` (looked up as ``ExternalProgram/path(of:)`` does), which Debian's
    /// `debianPackage` installs.
    package static func program(_ name: String, debianPackage: String) -> Prerequisite {
        Prerequisite(description: "\(name) is not installed (Debian: apt-get install \(debianPackage))") {
            ExternalProgram.path(of: name) != nil
        }
    }

    /// Wireshark's command-line reader, the reference for reassembly and pcap validity.
    package static let tshark = program("tshark", debianPackage: "tshark")

    /// Debian's Chromium, which renders `analyze --report` pages headless (scripts/test installs it).
    package static let chromium = program("chromium", debianPackage: "chromium")

    /// Python 3, which reads the screenshots Chromium takes (and runs the fixture generators).
    package static let python3 = program("python3", debianPackage: "python3")

    /// script(1), which gives a command a pseudo-terminal.
    package static let script = program("script", debianPackage: "bsdutils")

    /// protoc, the reference reader of protobuf bodies (`--decode_raw`, `--decode=TYPE`).
    package static let protoc = program("protoc", debianPackage: "protobuf-compiler")

    /// Python 3 with the msgpack package, the reference reader of MessagePack bodies.
    package static let pythonMsgpack = Prerequisite(
        description: "python3 with the msgpack package is not installed (Debian: apt-get install python3-msgpack; or pip install msgpack)"
    ) {
        (try? ExternalProgram.run("python3", ["-c", "import msgpack"]).status) == 0
    }

    /// Python 3 with Google's protobuf package, the reference of the proto3 JSON mapping
    /// (`json_format.MessageToDict`) and the source of the well-known types' descriptors.
    package static let pythonProtobuf = Prerequisite(
        description: "python3 with the protobuf package is not installed (pip install protobuf; Debian: apt-get install python3-protobuf)"
    ) {
        (try? ExternalProgram.run("python3", ["-c", "from google.protobuf import json_format, descriptor_pool"]).status) == 0
    }

    /// Capturing on a loopback interface no other traffic reaches: root (CAP_NET_RAW to open the
    /// interface, CAP_SYS_ADMIN for the ``PrivateNetwork`` it is in).
    package static let liveCapture = Prerequisite(
        description: "capturing on lo in a network namespace of the test's own needs root (CAP_NET_RAW, CAP_SYS_ADMIN)"
    ) {
        getuid() == 0 && PrivateNetwork.canBeCreated
    }

    /// Whether this run is CI's (`CI=true`, as CI runs .ci/run), where everything a test needs is
    /// installed (scripts/test installs it).
    package static var isContinuousIntegration: Bool {
        ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }
}

/// The trait made by ``Testing/Trait/requires(_:)``.
package struct PrerequisiteTrait: TestTrait, SuiteTrait {
    package let prerequisite: Prerequisite

    /// Returns when the prerequisite is met. Otherwise, under CI, throws ``Missing``, which fails
    /// the test (or every test of the suite) with what is missing: CI has everything installed, so
    /// a missing piece there is a broken machine, and a skip would let the run pass unchecked.
    /// Elsewhere the test is skipped with the same words, through `ConditionTrait`, which is
    /// the one way a trait can skip a test.
    package func prepare(for test: Test) async throws {
        guard !prerequisite.isMet() else { return }
        if Prerequisite.isContinuousIntegration { throw Missing(prerequisite: prerequisite) }
        try await ConditionTrait.enabled(if: false, Comment(rawValue: prerequisite.description)).prepare(for: test)
    }

    package struct Missing: Error, CustomStringConvertible {
        package var prerequisite: Prerequisite
        package var description: String { "\(prerequisite) — and CI=true, where a missing prerequisite fails the test" }
    }
}

extension Trait where Self == PrerequisiteTrait {
    /// Runs the test (or suite) only where `prerequisite` is met: without it the test is skipped,
    /// saying what is missing, except under CI (`CI=true`), where it fails saying so. Every test
    /// that needs a tool or privilege says so with this trait, never with a silent early return.
    package static func requires(_ prerequisite: Prerequisite) -> Self {
        PrerequisiteTrait(prerequisite: prerequisite)
    }
}
