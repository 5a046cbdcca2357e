import PushYAML

/// A problem in a profile or scenario, located in its file: the YAML layer's located error
/// (``YAMLError``), printed as `file:line:column: key.path: message`.
public typealias ScenarioError = YAMLError
