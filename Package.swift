// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "framedump",
    products: [
        .library(name: "FrameCodec", targets: ["FrameCodec"]),
        .library(name: "PacketDecoding", targets: ["PacketDecoding"]),
        .library(name: "PacketCapture", targets: ["PacketCapture"]),
        .library(name: "StreamFraming", targets: ["StreamFraming"]),
        .library(name: "TLSDecryption", targets: ["TLSDecryption"]),
        .library(name: "WebSocketFraming", targets: ["WebSocketFraming"]),
        .library(name: "BodyViews", targets: ["BodyViews"]),
        .library(name: "FrameDumpLive", targets: ["FrameDumpLive"]),
        .executable(name: "framedump", targets: ["framedump"]),
        .executable(name: "framedump-bench", targets: ["framedump-bench"]),
    ],
    targets: [
        // Pure Swift, standard library only: embeddable in an app or server, fuzzable alone.
        // Its one dependency is our own C target of CPU intrinsics: carry-less multiply and CRC
        // instructions, which Swift cannot reach (no library, no libc calls; chosen by CPUID).
        .target(name: "CCRCFold"),
        .target(name: "FrameCodec", dependencies: ["CCRCFold"]),
        .target(name: "PacketDecoding"),
        // The one framing engine every input shares (stdlib only, like the two above).
        .target(name: "StreamFraming", dependencies: ["FrameCodec", "PacketDecoding"]),
        // Body decoders (protobuf with and without a schema, MessagePack): stdlib only too, so
        // an app can show bodies the way the CLI does.
        .target(name: "BodyViews"),
        // Property and differential fuzzing of the frame decoder; stdlib only, like FrameCodec,
        // so the libFuzzer targets (Sources/FuzzTargets, built by scripts/fuzz) compile it too.
        // Its seeded generator (`FuzzRandom`) also drives the tests' and benchmarks' random inputs.
        .target(name: "FrameFuzzing", dependencies: ["FrameCodec"]),

        // The system's libpcap (Debian: libpcap-dev), found through pkg-config.
        .systemLibrary(
            name: "CPcap",
            pkgConfig: "libpcap",
            providers: [.apt(["libpcap-dev"])]
        ),
        .target(name: "PacketCapture", dependencies: ["CPcap", "PacketDecoding"]),

        // The system's OpenSSL libcrypto (Debian: libssl-dev): every cipher, MAC and digest TLS
        // decryption uses is OpenSSL's. Its headers only: the library is loaded when first used
        // (TLSDecryption's LibCrypto, dlopen), not linked, so that a process that never decrypts
        // does not load it at start-up. No pkg-config: its --libs would link it.
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "TLSDecryption", dependencies: ["CCrypto", "PacketDecoding", "StreamFraming"]),
        // WebSocket (RFC 6455) as a ConnectionLayer: stdlib only; permessage-deflate's inflater
        // is a protocol the embedder fills (the CLI's is zlib's).
        .target(name: "WebSocketFraming", dependencies: ["PacketDecoding", "StreamFraming"]),
        // `framedump fuzz --target websocket`: random conversations from the library's writers,
        // damaged or not, re-chunked and checked against what was written; stdlib only, so
        // compression comes from the caller (docs/architecture.md says why it is its own module).
        .target(name: "WebSocketFuzzing", dependencies: ["FrameFuzzing", "PacketDecoding", "StreamFraming", "WebSocketFraming"]),

        // Linux epoll(7), which the Glibc module leaves out: one of the live event loop's backends
        // (poll(2) is the other, and the only one elsewhere).
        .systemLibrary(name: "CEpoll"),
        // The live commands' sockets, event loop and relay; connection events as values.
        .target(name: "FrameDumpLive", dependencies: ["PacketDecoding", .target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
        .target(name: "FrameDumpCLI", dependencies: ["FrameCodec", "BodyViews", "FrameFuzzing", "PacketDecoding", "StreamFraming", "PacketCapture", "TLSDecryption", "WebSocketFraming", "WebSocketFuzzing", "CZlib", "FrameDumpLive"]),
        // The command links the Swift runtime statically on Linux: dynamic linking of the Swift
        // libraries took 1.1 ms (3.4 → 2.3 ms) of every run's start-up, a tenth of `decode` on a
        // 5 MB capture (docs/performance.md, "What it took"). Only this executable has the flag,
        // so the library products stay usable as dependencies.
        .executableTarget(
            name: "framedump",
            dependencies: ["FrameDumpCLI"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
        ),

        // zlib: the benchmark's reference CRC32, and the CLI's permessage-deflate inflater.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .executableTarget(
            name: "framedump-bench",
            dependencies: ["FrameCodec", "BodyViews", "FrameFuzzing", "PacketDecoding", "StreamFraming", "WebSocketFraming", "CZlib"],
            path: "Benchmarks/framedump-bench"
        ),

        // unshare(2) and setns(2), which Swift's Glibc module leaves out (glibc declares them
        // only under _GNU_SOURCE): live capture tests run in a network namespace of their own.
        .systemLibrary(name: "CNetworkNamespace", path: "Tests/CNetworkNamespace"),
        // What the test targets share, so each exists once: the seeded generator, test formats,
        // the packet and capture file builders, running the built binary, and what a test needs
        // from the machine (`.requires`, `PrivateNetwork`). A plain library that only test
        // targets depend on; the libFuzzer targets and the benchmark cannot depend on it, so they
        // keep their own packet writers.
        .target(
            name: "TestSupport",
            dependencies: ["FrameCodec", "FrameFuzzing", "PacketDecoding", "CNetworkNamespace"],
            path: "Tests/TestSupport"
        ),

        .testTarget(name: "FrameCodecTests", dependencies: ["FrameCodec", "CCRCFold", "TestSupport"]),
        .testTarget(name: "PacketDecodingTests", dependencies: ["PacketDecoding", "TestSupport"]),
        .testTarget(name: "StreamFramingTests", dependencies: ["StreamFraming", "FrameCodec", "PacketDecoding", "TestSupport"]),
        .testTarget(name: "PacketCaptureTests", dependencies: ["PacketCapture", "PacketDecoding", "StreamFraming", "FrameCodec", "TestSupport"]),
        .testTarget(name: "FrameDumpCLITests", dependencies: ["FrameDumpCLI", "FrameCodec", "PacketDecoding", "PacketCapture", "TestSupport"]),
        .testTarget(name: "FrameFuzzingTests", dependencies: ["FrameFuzzing", "FrameCodec"]),
        .testTarget(name: "TLSDecryptionTests", dependencies: ["TLSDecryption", "StreamFraming", "PacketDecoding", "PacketCapture", "TestSupport"]),
        .testTarget(name: "BodyViewsTests", dependencies: ["BodyViews"]),
        .testTarget(name: "WebSocketFramingTests", dependencies: ["WebSocketFraming", "StreamFraming", "PacketDecoding"]),
        .testTarget(name: "WebSocketFuzzingTests", dependencies: ["WebSocketFuzzing", "WebSocketFraming"]),
        .testTarget(name: "FrameDumpLiveTests", dependencies: ["FrameDumpLive", "PacketDecoding", "TestSupport"]),
        // The built `framedump` binary, run as a user would, by kind: what it does (behaviour),
        // its output against checked-in files (goldens), and its reading against other tools'
        // (tshark's, and the corpus oracles that tshark made).
        .testTarget(name: "EndToEndBehaviourTests", dependencies: ["FrameCodec", "PacketDecoding", "CZlib", "TestSupport"]),
        .testTarget(name: "EndToEndGoldenTests", dependencies: ["TestSupport"]),
        .testTarget(name: "ConformanceTests", dependencies: ["TestSupport", "FrameCodec", "PacketCapture"]),
    ],
    swiftLanguageModes: [.v6]
)
