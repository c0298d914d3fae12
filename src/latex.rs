//! LaTeX rendering shared by the tables of the CLI (`--format latex`) and the plots
//! ([`crate::plot::Plot::tikz`]): escaping text (with the Unicode symbols of balloc's outputs
//! written as math) and rationals as `\frac`.

/// Escapes LaTeX's special characters in text (`\ & % $ # _ { } ~ ^`), and writes the Unicode
/// symbols that the outputs use (Greek letters, `≤`, `≥`, `−`, `·`, `∈`) as math.
///
/// ```
/// use balloc::latex::escape;
/// assert_eq!(escape("a_b & 50%"), "a\\_b \\& 50\\%");
/// assert_eq!(escape("Γ ≤ 1"), "$\\Gamma$ $\\le$ 1");
/// assert_eq!(escape("(1 ∓ ε̃)/n"), "(1 $\\mp$ $\\tilde{\\varepsilon}$)/n");
/// assert_eq!(escape("L̄(S)"), "$\\bar{L}$(S)");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        // A combining tilde (U+0303) or macron (U+0304) puts an accent over the preceding symbol:
        // `ε̃` is `\tilde\varepsilon`, `L̄` is `\bar{L}`.
        if let Some(&mark @ ('\u{303}' | '\u{304}')) = chars.peek() {
            chars.next();
            let inner = unicode_math(c).map_or_else(|| c.to_string(), str::to_string);
            let accent = if mark == '\u{303}' { "tilde" } else { "bar" };
            out.push_str(&format!("$\\{accent}{{{inner}}}$"));
            continue;
        }
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            '§' => out.push_str("\\S{}"),
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '\u{303}' => out.push_str("\\~{}"),
            '\u{304}' => out.push_str("\\={}"),
            _ => match unicode_math(c) {
                Some(m) => {
                    out.push('$');
                    out.push_str(m);
                    out.push('$');
                }
                None => out.push(c),
            },
        }
    }
    out
}

/// Math-mode LaTeX for the Unicode symbols of [`escape`] (`β` is `\beta`, `≤` is `\le`), for
/// text that is already LaTeX math, such as a theorem file's statement.
///
/// ```
/// assert_eq!(balloc::latex::math_symbol('β'), Some("\\beta"));
/// assert_eq!(balloc::latex::math_symbol('a'), None);
/// ```
pub fn math_symbol(c: char) -> Option<&'static str> {
    unicode_math(c)
}

/// The LaTeX math of a Unicode symbol used in balloc's outputs and theorem titles (Greek
/// letters, relations, arrows, sub- and superscript digits; `ℤ` needs `amssymb`).
fn unicode_math(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ε' => "\\varepsilon",
        'ζ' => "\\zeta",
        'η' => "\\eta",
        'θ' => "\\theta",
        'κ' => "\\kappa",
        'λ' => "\\lambda",
        'μ' => "\\mu",
        'ν' => "\\nu",
        'ξ' => "\\xi",
        'π' => "\\pi",
        'ρ' => "\\rho",
        'σ' => "\\sigma",
        'τ' => "\\tau",
        'φ' => "\\varphi",
        'χ' => "\\chi",
        'ψ' => "\\psi",
        'ω' => "\\omega",
        'Γ' => "\\Gamma",
        'Δ' => "\\Delta",
        'Θ' => "\\Theta",
        'Λ' => "\\Lambda",
        'Σ' => "\\Sigma",
        'Υ' => "\\Upsilon",
        'Φ' => "\\Phi",
        'Ψ' => "\\Psi",
        'Ω' => "\\Omega",
        '≤' => "\\le",
        '≥' => "\\ge",
        '≠' => "\\ne",
        '≈' => "\\approx",
        '≪' => "\\ll",
        '≫' => "\\gg",
        '±' => "\\pm",
        '∓' => "\\mp",
        '−' => "-",
        '·' => "\\cdot",
        '×' => "\\times",
        '∈' => "\\in",
        '∉' => "\\notin",
        '∀' => "\\forall",
        '∅' => "\\emptyset",
        '∑' => "\\sum",
        '√' => "\\surd",
        '∞' => "\\infty",
        '…' => "\\ldots",
        '←' => "\\leftarrow",
        '→' => "\\to",
        '⇒' => "\\Rightarrow",
        '⌈' => "\\lceil",
        '⌉' => "\\rceil",
        '⌊' => "\\lfloor",
        '⌋' => "\\rfloor",
        'ℤ' => "\\mathbb{Z}",
        '✗' => "\\times",
        '⁰' => "^{0}",
        '¹' => "^{1}",
        '²' => "^{2}",
        '³' => "^{3}",
        '⁴' => "^{4}",
        '⁵' => "^{5}",
        '⁶' => "^{6}",
        '⁷' => "^{7}",
        '⁸' => "^{8}",
        '⁹' => "^{9}",
        '⁻' => "^{-}",
        'ᵗ' => "^{t}",
        '₀' => "_{0}",
        '₁' => "_{1}",
        '₂' => "_{2}",
        '₃' => "_{3}",
        '₊' => "_{+}",
        '₋' => "_{-}",
        'ᵢ' => "_{i}",
        _ => return None,
    })
}

/// A rational in LaTeX: an integer as is, otherwise `\frac{p}{q}` with the sign in front.
///
/// ```
/// use balloc::latex::rational;
/// use balloc::exact::Q;
/// assert_eq!(rational(&Q::new(11.into(), 2.into())), "\\frac{11}{2}");
/// assert_eq!(rational(&Q::new((-3).into(), 4.into())), "-\\frac{3}{4}");
/// assert_eq!(rational(&Q::from_integer(7.into())), "7");
/// ```
pub fn rational(q: &crate::exact::Q) -> String {
    use num_traits::Signed;
    if q.is_integer() {
        return q.to_integer().to_string();
    }
    let sign = if q.is_negative() { "-" } else { "" };
    format!("{sign}\\frac{{{}}}{{{}}}", q.numer().abs(), q.denom())
}
