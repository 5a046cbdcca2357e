extension Theme {
  /// The text of `themes/default.yaml`, compiled in so the binary works without the folder.
  ///
  /// `PushRenderTests` checks that this and the file stay identical.
  public static let builtInDefaultYAML: String = #"""
    # Pushdeck default theme: dark, like an iPhone lock screen at night.
    # Colours: "#RRGGBB", a palette name, an ANSI name (red, brightBlue, ...), default, or 0-255.
    # A role without fg/bg is transparent there: it shows what is drawn underneath.
    name: default
    palette:
      ink: "#F5F5F7"
      secondary: "#C7C7CC"
      tertiary: "#8E8E98"
      card: "#383852"
      edge: "#5A5A7A"
      amber: "#FFB340"
      violet: "#BF9BFF"
      blue: "#64A8FF"
      red: "#FF6961"
    wallpaper:
      top: "#1E1B40"
      bottom: "#0A0A14"
    roles:
      background: { fg: ink, bg: "#0A0A14" }
      statusBar: { fg: ink, bold: true }
      lockIcon: { fg: ink }
      lockClock: { fg: ink, bold: true }
      lockDate: { fg: secondary, bold: true }
      focusIndicator: { fg: violet, bold: true }
      card: { fg: ink, bg: card }
      cardBorder: { fg: edge }
      appName: { fg: secondary, bold: true }
      cardMeta: { fg: tertiary }
      cardTitle: { fg: ink, bold: true }
      cardSubtitle: { fg: secondary }
      cardBody: { fg: ink }
      timeSensitiveLabel: { fg: amber, bold: true }
      stackEdge: { fg: edge }
      stackCount: { fg: tertiary, italic: true }
      groupHeader: { fg: secondary, bold: true }
      overflow: { fg: tertiary }
      selection: { fg: ink, bg: "#4A4A6E", bold: true }
      bannerTitle: { fg: ink, bold: true }
      bannerBody: { fg: ink }
      actionButton: { fg: blue, bold: true }
      destructiveAction: { fg: red, bold: true }
      footer: { fg: tertiary }
      footerKey: { fg: ink, bg: edge, bold: true }
      warning: { fg: amber, bold: true }
    monochrome:
      lockClock: [bold]
      lockDate: [bold]
      cardTitle: [bold]
      timeSensitiveLabel: [bold, underline]
      focusIndicator: [reverse]
      selection: [reverse]
      footerKey: [reverse]
      warning: [bold]

    """#
}
