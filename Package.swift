// swift-tools-version: 6.1
import PackageDescription

// Layering (see docs/ARCHITECTURE.md): imports only point downwards.
//   PushWire   — wire formats: JSON scanner, APNs payloads, headers, captures, diagnostics (pure)
//   PushCore   — the simulated device: notifications, attachments, extension results, policy, store, grouping (pure)
//   PushYAML   — the one YAML layer: located nodes, line:column errors (pure; Yams)
//   PushUI     — this UI's state machine: AppState, events, reducer (pure)
//   PushRender — cell grid, widths, widgets, themes (pure)
//   PushMockup — the state drawn as an iPhone in SVG (pure); PushRaster — SVG to PNG (librsvg)
//   PushTerminal — the one ncurses backend; PushRuntime — the loop;
//   PushShell — the shell logic (inputs, sessions, replay, printers); pushdeck — the CLI commands.
let package = Package(
  name: "Pushdeck",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "pushdeck", targets: ["pushdeck"]),
    .library(name: "PushWire", targets: ["PushWire"]),
    .library(name: "PushCore", targets: ["PushCore"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
  ],
  targets: [
    .target(name: "PushWire"),
    .target(name: "PushCore", dependencies: ["PushWire"]),
    .target(name: "PushUI", dependencies: ["PushCore"]),
    // The one YAML layer under scenarios, device profiles and themes: located nodes, errors at
    // line:column and key path, YAML 1.2 core scalars (docs/DECISIONS.md, One YAML layer).
    .target(name: "PushYAML", dependencies: ["PushWire", .product(name: "Yams", package: "Yams")]),
    // Builds `themes/*.yaml` and `Examples/demo.yaml` into PushRender and PushScenario, so the
    // binary needs nothing from the checkout (docs/DECISIONS.md, Self-contained binary).
    .plugin(name: "EmbedFiles", capability: .buildTool(), path: "Sources/EmbedFilesPlugin"),
    .target(
      name: "PushScenario", dependencies: ["PushCore", "PushYAML", .product(name: "Yams", package: "Yams")],
      plugins: ["EmbedFiles"]),
    .target(
      name: "PushStore",
      dependencies: [
        "PushCore", .product(name: "GRDB", package: "GRDB.swift"),
        // The SQLite C API, for binding a replay's rows without boxing (DeliveryRow).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ]
    ),
    .target(
      name: "PushRender",
      dependencies: ["PushWire", "PushCore", "PushUI", "PushYAML"],
      plugins: ["EmbedFiles"]
    ),
    .systemLibrary(
      name: "CNCursesW",
      pkgConfig: "ncursesw",
      providers: [.apt(["libncursesw5-dev"])]
    ),
    .target(name: "PushTerminal", dependencies: ["PushUI", "PushRender", "CNCursesW"]),
    // PNG and JPEG decoding for attachment thumbnails: C shims with setjmp error handlers.
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
    .target(name: "PushMedia", dependencies: ["PushCore", "CPNG", "CJPEG"]),
    // The APNs-compatible HTTP/2 endpoint (h2c for now): a shell target on swift-nio.
    .target(
      name: "PushServer",
      dependencies: [
        "PushWire",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTP2", package: "swift-nio-http2"),
        .product(name: "NIOHPACK", package: "swift-nio-http2"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    .target(name: "PushRuntime", dependencies: ["PushCore", "PushUI", "PushRender"]),
    // Phone mockups and storyboards: the state drawn as an iPhone in SVG (pure, no ncurses).
    .target(name: "PushMockup", dependencies: ["PushWire", "PushCore", "PushUI", "PushRender"]),
    // SVG to PNG through librsvg and cairo (docs/DECISIONS.md, Phone mockups).
    .systemLibrary(
      name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
    .systemLibrary(
      name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
    .target(name: "PushRaster", dependencies: ["CRsvg", "CPangoCairo"]),
    // Built-in action handlers (log, exec, http, open), service extensions (attach-media,
    // decrypt, exec) and their registries: a shell target.
    .target(
      name: "PushHandlers",
      dependencies: [
        "PushUI", "PushCore", .product(name: "Crypto", package: "swift-crypto"),
        // The exec handler and extension start their programs through Subprocess (argv, never a shell).
        .product(name: "Subprocess", package: "swift-subprocess"),
      ]
    ),
    // `pushdeck test`: plays scenarios, checks their expect: blocks, writes text, JUnit, GitHub
    // annotations and Markdown; shared with explain (handler runs): a shell target.
    .target(
      name: "PushCheck",
      dependencies: ["PushCore", "PushUI", "PushRender", "PushScenario", "PushHandlers", "PushMedia"]
    ),
    // <malloc.h> (mallopt), which the Glibc module does not export: the shell tunes the allocator
    // for streaming a capture (PushShell/OutputStream.swift).
    .systemLibrary(name: "CMalloc"),
    // The shell: reading inputs, sessions, replay and its journal, the live device behind `serve`
    // and `run --listen`, the printers of validate/explain/render — everything the commands do
    // that is not argument parsing, in a library its tests can import.
    .target(
      name: "PushShell",
      dependencies: [
        "PushWire", "PushCore", "PushUI", "PushRender", "PushTerminal", "PushRuntime", "PushScenario", "PushStore",
        "PushHandlers", "PushServer", "PushMedia", "PushMockup", "PushRaster", "PushCheck",
        "CMalloc",
      ]
    ),
    // The `pushdeck` executable: only the ArgumentParser commands and their option groups.
    .executableTarget(
      name: "pushdeck",
      dependencies: [
        "PushShell", "PushWire", "PushCore", "PushUI", "PushRender", "PushTerminal", "PushRuntime", "PushScenario",
        "PushStore", "PushHandlers", "PushServer", "PushMedia", "PushMockup", "PushRaster", "PushCheck",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .target(
      name: "PushTestSupport", dependencies: ["PushCore", "PushRender", "PushUI", "PushWire", "PushScenario"],
      path: "Sources/PushTestSupport"),
    .testTarget(name: "PushWireTests", dependencies: ["PushWire", "PushTestSupport"]),
    .testTarget(name: "PushCoreTests", dependencies: ["PushCore", "PushTestSupport"]),
    .testTarget(name: "PushUITests", dependencies: ["PushUI", "PushCore", "PushScenario", "PushTestSupport"]),
    .testTarget(name: "PushScenarioTests", dependencies: ["PushScenario", "PushCore", "PushUI", "PushTestSupport"]),
    .testTarget(name: "PushYAMLTests", dependencies: ["PushYAML"]),
    .testTarget(
      name: "PushRenderTests", dependencies: ["PushRender", "PushCore", "PushUI", "PushTestSupport"],
      exclude: ["Goldens"]),
    // A child process for the kill-and-reopen test: appends batches until it is SIGKILLed.
    .executableTarget(
      name: "PushStoreJournalChild", dependencies: ["PushStore", "PushCore"], path: "Tests/PushStoreJournalChild"),
    .testTarget(
      name: "PushStoreTests",
      dependencies: [
        "PushStore", "PushStoreJournalChild", "PushCore", "PushTestSupport",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),
    .testTarget(
      name: "PushServerTests",
      dependencies: [
        "PushServer", "PushWire", "PushTestSupport", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
      ]),
    .testTarget(name: "PushCheckTests", dependencies: ["PushCheck", "PushScenario", "PushCore", "PushTestSupport"]),
    .testTarget(
      name: "PushMockupTests",
      dependencies: [
        "PushMockup", "PushRaster", "PushMedia", "PushRender", "PushUI", "PushCore", "PushTestSupport",
      ],
      exclude: ["Goldens"]),
    .testTarget(name: "PushHandlersTests", dependencies: ["PushHandlers", "PushUI", "PushCore", "PushTestSupport"]),
    .testTarget(name: "PushTerminalTests", dependencies: ["PushTerminal", "PushRender", "PushTestSupport"]),
    .testTarget(
      name: "PushMediaTests", dependencies: ["PushMedia", "PushRender", "PushUI", "PushCore"], exclude: ["Fixtures"]),
    .testTarget(
      name: "PushRuntimeTests",
      dependencies: [
        "PushRuntime", "PushCore", "PushUI", "PushRender", "PushScenario", "PushHandlers", "PushTestSupport",
      ]),
    .testTarget(
      name: "PushShellTests",
      dependencies: ["PushShell", "PushCore", "PushScenario", "PushUI", "PushWire", "PushTestSupport"]),
    .testTarget(
      name: "PushdeckCLITests",
      dependencies: [
        "pushdeck", "PushCore", "PushRender", "PushServer", "PushStore", "PushTestSupport",
      ],
      exclude: ["Goldens"]),
  ]
)

// libFuzzer targets (docs/RELIABILITY.md), declared only when PUSHDECK_FUZZ is set: `.ci/fuzz`
// builds them with `--sanitize=fuzzer --sanitize=address`; normal builds and CI never see them.
if Context.environment["PUSHDECK_FUZZ"] != nil {
  package.targets += [
    .executableTarget(name: "FuzzPayload", dependencies: ["PushCore"], path: "Tests/Fuzz/Payload"),
    .executableTarget(name: "FuzzCapture", dependencies: ["PushCore"], path: "Tests/Fuzz/Capture"),
    .executableTarget(name: "FuzzScenario", dependencies: ["PushScenario", "PushCore"], path: "Tests/Fuzz/Scenario"),
    .executableTarget(name: "FuzzTheme", dependencies: ["PushRender"], path: "Tests/Fuzz/Theme"),
    .executableTarget(
      name: "FuzzAPNsRequest",
      dependencies: ["PushServer", "PushWire", .product(name: "Crypto", package: "swift-crypto")],
      path: "Tests/Fuzz/APNsRequest"),
    .executableTarget(
      name: "FuzzHTTP2",
      dependencies: [
        "PushServer", "PushWire", .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP2", package: "swift-nio-http2"),
      ], path: "Tests/Fuzz/HTTP2"),
  ]
}
