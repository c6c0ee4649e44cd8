/// Which protocol: the probe's choice (`Capabilities`), and part of every tile's key. What each
/// one does lives behind `format` (`TileFormat`, `Canvas`).
package enum RenderMode: Hashable, Sendable {
    /// Real pixels with an adaptive palette of this many colour registers.
    case sixel(colors: Int)
    /// Real pixels in 24 bits through the kitty graphics protocol, each tile sent once: through
    /// the pty, or as files the terminal reads when it runs on this machine.
    case kitty(KittyTransfer)
    /// Real pixels as JPEG in iTerm2's inline images (OSC 1337), drawn and overwritten like sixel.
    case iterm
    case halfBlock(TextColors)

}

/// How text (and half-block pictures) are coloured: 24-bit (`38;2;r;g;b`, when COLORTERM says
/// truecolor or 24bit), or the xterm 256-colour palette everywhere else.
package enum TextColors: String, Hashable, Sendable {
    case trueColor
    case palette256
}

/// How kitty pictures reach the terminal: through the pty (zlib, base64, in chunks), or, when the
/// terminal runs on this machine, as a file in /dev/shm that it reads and deletes (`t=t`); through
/// tmux, as through the pty, each command inside tmux's passthrough, drawn with Unicode
/// placeholders (the kitty canvas, `Canvas/Kitty`).
package enum KittyTransfer: Hashable, Sendable { case inline, file, tmux }
