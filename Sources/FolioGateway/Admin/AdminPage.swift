import Crypto

/// The admin page (`GET /` and `GET /ui` on the admin listener; docs/OPERATIONS.md, "Admin
/// page"): one HTML document with its style and script inline and nothing from anywhere else,
/// so it works offline. The script reads `GET /state` every 2 s and builds the tables with DOM
/// calls (never `innerHTML`: route names and tokens come from the config and the upstream).
///
/// `Content-Security-Policy` allows exactly that style and that script, by their SHA-256, and
/// requests to this origin only.
enum AdminPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Folio admin</title>
        <link rel="icon" href="data:,">
        <style>\(AdminPageAssets.style)</style>
        </head>
        <body>
        <header><h1>Folio</h1><span id="summary"></span><span id="status">loading…</span></header>
        <main>
        <section id="store" class="card"></section>
        <div id="routes"></div>
        <p id="note" role="status"></p>
        </main>
        <script>\(AdminPageAssets.script)</script>
        </body>
        </html>

        """

    static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(digest(AdminPageAssets.script))'; "
        + "style-src '\(digest(AdminPageAssets.style))'; connect-src 'self'; img-src data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// `sha256-BASE64` of `text`, as a CSP source.
    static func digest(_ text: String) -> String {
        "sha256-" + base64(Array(SHA256.hash(data: Array(text.utf8))))
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                text.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : "=")
            }
            index += 3
        }
        return text
    }
}
