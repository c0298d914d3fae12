//! A theorem file's LaTeX `statement` as MathML (MathML Core, which browsers render without
//! JavaScript), through the `math-core` crate. A statement that cannot be rendered is shown as
//! its source text with a warning, never a failure of the whole site.

/// A rendered statement: MathML, or the escaped source with the reason it was not rendered.
#[derive(Debug, Clone, PartialEq)]
pub enum Rendered {
    /// A `<math display="block">` element.
    MathMl(String),
    /// The statement could not be rendered: the reason, and the source as HTML text.
    Source {
        /// Why (the converter's error).
        reason: String,
        /// The LaTeX source, HTML-escaped.
        html: String,
    },
}

impl Rendered {
    /// The HTML of the statement block: the MathML, or a warning and the source in `<pre>`.
    pub fn html(&self) -> String {
        match self {
            Rendered::MathMl(m) => m.clone(),
            Rendered::Source { reason, html } => format!(
                "<p class=\"warning\">This statement could not be typeset ({}); its LaTeX source:</p><pre class=\"latex-source\">{html}</pre>",
                super::html::escape(reason)
            ),
        }
    }
}

/// The statement text as the converter takes it: TeX's control space written as a line break
/// (`\` at the end of a line) becomes `\ `, and surrounding white space is dropped.
fn normalise(latex: &str) -> String {
    latex.trim().replace("\\\r\n", "\\ ").replace("\\\n", "\\ ")
}

/// Renders `latex` (math-mode content, as the `statement` of a theorem file) as a MathML block.
///
/// ```
/// use balloc::blueprint::math::{render, Rendered};
/// let Rendered::MathMl(m) = render(r"\tfrac{1}{n} \le \alpha") else { panic!() };
/// assert!(m.starts_with("<math") && m.contains("<mfrac") && m.contains("α"));
/// // A command the converter does not know is shown as source text with a warning.
/// let Rendered::Source { reason, html } = render(r"x \nosuchcommand y") else { panic!() };
/// assert!(reason.contains("nosuchcommand") && html.contains("\\nosuchcommand"));
/// ```
pub fn render(latex: &str) -> Rendered {
    let text = normalise(latex);
    let source = |reason: String| Rendered::Source {
        reason,
        html: super::html::escape(latex.trim()),
    };
    if text.is_empty() {
        return source("the file has no statement".into());
    }
    let converter = match math_core::LatexToMathML::new(math_core::MathCoreConfig::default()) {
        Ok(c) => c,
        Err(e) => return source(format!("the converter did not start: {e:?}")),
    };
    match converter.convert_with_local_state(&text, math_core::MathDisplay::Block) {
        Ok(r) => Rendered::MathMl(r.mathml),
        Err(e) => {
            let at = text.get(e.0.clone()).unwrap_or("");
            source(format!("{} at `{at}`", e.error_message()))
        }
    }
}
