//! The HTML site: escaping and links (`batch::html_parts`).

use pikeshot::batch::html_parts::*;

#[test]
fn escapes_markup_and_quotes() {
    assert_eq!(
        esc("a<b & \"c\" 'd'>"),
        "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
    );
}

#[test]
fn hrefs_keep_slashes_and_encode_the_rest() {
    assert_eq!(href("mpbs/a b/x.png"), "mpbs/a%20b/x.png");
    assert_eq!(href("é.png"), "%C3%A9.png");
}
