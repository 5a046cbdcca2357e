import Foundation
import PushTestSupport
import Testing

/// The targets and products `Package.swift` declares, read from its text (running SwiftPM from a
/// test would wait on the lock of the build that runs the test).
struct ManifestTargets {
  struct Target: Equatable {
    var kind: String
    var name: String
    var path: String?
    var dependencies: [String]
  }

  var targets: [Target] = []
  var libraryProducts: [String] = []
  /// The products of other packages some target depends on (each is also the module's name).
  var externalProducts: Set<String> = []

  /// The targets that ship: libraries and executables outside `Tests/`.
  var shippedTargets: [Target] {
    targets.filter { ["target", "executableTarget"].contains($0.kind) && !($0.path ?? "").hasPrefix("Tests/") }
  }

  /// Reads the package's declaration; the fuzz targets added under `PUSHDECK_FUZZ` only when asked.
  init(text: String, includingFuzz: Bool = false) {
    let main = includingFuzz ? text : text.components(separatedBy: "\nif Context.environment").first ?? text
    let code = main.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
      .joined(separator: "\n")
    libraryProducts = Self.captures(#"\.library\(name: "([^"]+)""#, in: code)
    externalProducts = Set(Self.captures(#"\.product\(name: "([^"]+)""#, in: code))
    let starts = Self.matches(#"\.(target|executableTarget|testTarget|systemLibrary|plugin)\("#, in: code)
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1].range.location : (code as NSString).length
      let chunk = (code as NSString).substring(
        with: NSRange(location: start.range.location, length: end - start.range.location))
      let kind = (code as NSString).substring(with: start.range(at: 1))
      guard let name = Self.captures(#"name: "([^"]+)""#, in: chunk).first else { continue }
      let path = Self.captures(#"path: "([^"]+)""#, in: chunk).first
      targets.append(Target(kind: kind, name: name, path: path, dependencies: Self.dependencies(in: chunk)))
    }
  }

  /// Where a target's sources are: its `path`, or SwiftPM's default folder.
  func directory(of target: Target) -> String {
    target.path ?? (target.kind == "testTarget" ? "Tests/\(target.name)" : "Sources/\(target.name)")
  }

  /// The names in a target's `dependencies: [...]`: targets by name, products by product name.
  static func dependencies(in chunk: String) -> [String] {
    guard let open = chunk.range(of: "dependencies: [") else { return [] }
    var depth = 1
    var end = open.upperBound
    while end < chunk.endIndex, depth > 0 {
      if chunk[end] == "[" { depth += 1 }
      if chunk[end] == "]" { depth -= 1 }
      end = chunk.index(after: end)
    }
    let list = String(chunk[open.upperBound..<end])
    let products = captures(#"\.product\(name: "([^"]+)""#, in: list)
    let withoutProducts = list.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
    return captures(#""([^"]+)""#, in: withoutProducts) + products
  }

  static func matches(_ pattern: String, in text: String) -> [NSTextCheckingResult] {
    guard let expression = try? NSRegularExpression(pattern: pattern) else {
      Issue.record("bad pattern \(pattern)")
      return []
    }
    return expression.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
  }

  static func captures(_ pattern: String, in text: String) -> [String] {
    matches(pattern, in: text).map { (text as NSString).substring(with: $0.range(at: 1)) }
  }
}

/// docs/ARCHITECTURE.md and docs/PUBLIC-API.md are held to `Package.swift`, so the picture of the
/// targets and the list of what is public cannot drift from what the build declares.
@Suite struct ArchitectureDocumentTests {
  let root = Corpus.repositoryRoot()

  func read(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  func manifest() throws -> ManifestTargets { ManifestTargets(text: try read("Package.swift")) }

  /// The lines of `text` from the heading `start` up to the next heading of that level or higher.
  func section(_ start: String, of text: String) throws -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let begin = try #require(lines.firstIndex { $0 == start }, "no heading \(start)")
    let level = start.prefix { $0 == "#" }.count
    let rest = lines[(begin + 1)...]
    let end =
      rest.firstIndex { line in
        let hashes = line.prefix { $0 == "#" }.count
        return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
      } ?? lines.endIndex
    return lines[(begin + 1)..<end].joined(separator: "\n")
  }

  @Test func theManifestReaderFindsTargetsAndTheirDependencies() {
    let text = """
      products: [.library(name: "A", targets: ["A"])],
      targets: [
        .target(name: "A"),
        .target(
          name: "B",
          dependencies: [
            // A comment with "quotes".
            "A", .product(name: "Yams", package: "Yams"),
          ],
          plugins: ["P"]),
        .executableTarget(name: "Child", dependencies: ["B"], path: "Tests/Child"),
        .testTarget(name: "BTests", dependencies: ["B"]),
      ]
      if Context.environment["X"] != nil {
        package.targets += [.executableTarget(name: "Fuzz", dependencies: ["A"])]
      }
      """
    let manifest = ManifestTargets(text: text)
    #expect(manifest.libraryProducts == ["A"])
    #expect(manifest.targets.map(\.name) == ["A", "B", "Child", "BTests"])
    #expect(manifest.targets[1].dependencies == ["A", "Yams"])
    #expect(manifest.shippedTargets.map(\.name) == ["A", "B"])
  }

  /// The "Direct dependencies" table names every shipped target with what it declares.
  @Test func theDependencyTableMatchesThePackage() throws {
    let table = try section("### Direct dependencies", of: read("docs/ARCHITECTURE.md"))
    var documented: [String: Set<String>] = [:]
    for line in table.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2 else { continue }
      let names = cells[1] == "—" ? [] : cells[1].components(separatedBy: ", ")
      documented[cells[0].trimmingCharacters(in: ["`"])] = Set(names.map { $0.trimmingCharacters(in: ["`"]) })
    }
    let declared = Dictionary(
      try manifest().shippedTargets.map { ($0.name, Set($0.dependencies)) }, uniquingKeysWith: { first, _ in first })
    #expect(declared.count > 10)
    for (name, dependencies) in declared.sorted(by: { $0.key < $1.key }) {
      #expect(documented[name] == dependencies, "docs/ARCHITECTURE.md, Direct dependencies: the row of \(name)")
    }
    let extra = Set(documented.keys).subtracting(declared.keys)
    #expect(extra.isEmpty, "docs/ARCHITECTURE.md names targets Package.swift does not have: \(extra.sorted())")
  }

  /// Every shipped target appears in the diagram.
  @Test func theDiagramShowsEveryTarget() throws {
    let text = try section("## Targets and dependency rules", of: read("docs/ARCHITECTURE.md"))
    let diagram = try #require(
      text.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
    for target in try manifest().shippedTargets where target.name != "PushTestSupport" {
      #expect(diagram.contains(target.name), "the diagram in docs/ARCHITECTURE.md leaves out \(target.name)")
    }
  }

  /// docs/PUBLIC-API.md calls stable only what the library products hold, and names every other
  /// library target as internal.
  @Test func thePublicAPIIsTheLibraryProducts() throws {
    let document = try read("docs/PUBLIC-API.md")
    let manifest = try manifest()
    let products = Set(manifest.libraryProducts)
    #expect(!products.isEmpty)
    let targetNames = Set(manifest.targets.map(\.name))
    let stable = try section("## Stable: you may implement or depend on these", of: document)
    let modulesCalledStable = Set(
      ManifestTargets.captures(#"\(`([A-Za-z]+)`\)"#, in: stable).filter { targetNames.contains($0) })
    #expect(!modulesCalledStable.isEmpty)
    let notProducts = modulesCalledStable.subtracting(products)
    #expect(
      notProducts.isEmpty, "docs/PUBLIC-API.md calls types of \(notProducts.sorted()) stable; they are not products")
    let whatIsPublic = try section("## What is public", of: document)
    for product in products {
      #expect(whatIsPublic.contains("**`\(product)`**"), "docs/PUBLIC-API.md does not name the product \(product)")
    }
    for target in manifest.shippedTargets where target.kind == "target" && !products.contains(target.name) {
      guard target.name != "PushTestSupport" else { continue }
      #expect(whatIsPublic.contains("`\(target.name)`"), "docs/PUBLIC-API.md does not say \(target.name) is internal")
    }
  }
}

/// Every module a target imports is declared as its direct dependency in `Package.swift`, test
/// and fuzz targets included. SwiftPM's `--explicit-target-dependency-import-check` (on CI's build)
/// only fails an import of a target outside the importer's whole dependency graph; an import that
/// works because a dependency's dependency brings the module along is caught here.
@Suite struct ImportDeclarationTests {
  let root = Corpus.repositoryRoot()

  /// The modules a Swift file imports (`import X`, `@testable import X`, `import struct X.Y`…).
  static func imports(in source: String) -> Set<String> {
    Set(
      ManifestTargets.captures(
        #"(?m)^[ \t]*(?:@[A-Za-z_]+(?:\([^)]*\))?[ \t]+)*import[ \t]+(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)"#,
        in: source))
  }

  /// The Swift files under `directory`, relative to the checkout.
  func swiftFiles(under directory: String) -> [URL] {
    let base = root.appendingPathComponent(directory)
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
    return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
  }

  @Test func importsAreFoundInEveryForm() {
    let source = """
      import Foundation
      @testable import Alpha
      @preconcurrency import Beta
      import struct Gamma.Value
        let text = "not an import Delta"
      """
    #expect(Self.imports(in: source) == ["Foundation", "Alpha", "Beta", "Gamma"])
  }

  @Test func everyImportIsADeclaredDependency() throws {
    let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let manifest = ManifestTargets(text: text, includingFuzz: true)
    // Modules this package can name: its targets and the products it takes from other packages.
    let known = Set(manifest.targets.map(\.name)).union(manifest.externalProducts)
    var checked = 0
    for target in manifest.targets where target.kind != "systemLibrary" {
      let declared = Set(target.dependencies)
      for file in swiftFiles(under: manifest.directory(of: target)) {
        let source = try String(contentsOf: file, encoding: .utf8)
        for module in Self.imports(in: source) where known.contains(module) && module != target.name {
          checked += 1
          #expect(
            declared.contains(module),
            "\(file.path.replacingOccurrences(of: root.path + "/", with: "")) imports \(module), which Package.swift does not list in the dependencies of \(target.name)"
          )
        }
      }
    }
    #expect(checked > 100)
  }
}
