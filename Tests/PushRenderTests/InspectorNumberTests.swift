import Testing

@testable import PushRender

/// The inspector's rank terms come from the device, or from a saved row that may hold any double
/// (a hand-edited state): each is written without a trap.
struct InspectorNumberTests {
  @Test(arguments: [
    (0.5, "0.5"), (3.0, "3"), (-0.25, "-0.25"), (1e300, "1e+300"), (-1e300, "-1e+300"), (Double.infinity, "inf"),
    (Double.nan, "nan"),
  ])
  func aRankTermIsWrittenWhateverItIs(_ value: Double, _ text: String) {
    #expect(InspectorView.format(value) == text)
  }
}
