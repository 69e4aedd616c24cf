// swift-tools-version:6.0
import PackageDescription

// framedump's libraries used from another package: `swift run CaptureFrames CAPTURE.pcap [FORMAT]`.
// The dependency is named, so the products resolve whatever the checkout's directory is called.
let package = Package(
    name: "CaptureFrames",
    dependencies: [.package(name: "framedump", path: "../..")],
    targets: [
        .executableTarget(
            name: "CaptureFrames",
            dependencies: [
                .product(name: "FrameCodec", package: "framedump"),
                .product(name: "PacketCapture", package: "framedump"),
                .product(name: "StreamFraming", package: "framedump"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
