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
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
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

/// The LaTeX math command of a Unicode symbol used in balloc's outputs.
fn unicode_math(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ε' => "\\varepsilon",
        'θ' => "\\theta",
        'κ' => "\\kappa",
        'λ' => "\\lambda",
        'Γ' => "\\Gamma",
        'Φ' => "\\Phi",
        'Ψ' => "\\Psi",
        'Υ' => "\\Upsilon",
        'Δ' => "\\Delta",
        'Λ' => "\\Lambda",
        '≤' => "\\le",
        '≥' => "\\ge",
        '−' => "-",
        '·' => "\\cdot",
        '×' => "\\times",
        '∈' => "\\in",
        '≈' => "\\approx",
        '∞' => "\\infty",
        '…' => "\\ldots",
        '←' => "\\leftarrow",
        '✗' => "\\times",
        _ => return None,
    })
}

/// A rational in LaTeX: an integer as is, otherwise `\frac{p}{q}` with the sign in front.
///
/// ```
/// use balloc::latex::rational;
/// use num_rational::BigRational;
/// assert_eq!(rational(&BigRational::new(11.into(), 2.into())), "\\frac{11}{2}");
/// assert_eq!(rational(&BigRational::new((-3).into(), 4.into())), "-\\frac{3}{4}");
/// assert_eq!(rational(&BigRational::from_integer(7.into())), "7");
/// ```
pub fn rational(q: &num_rational::BigRational) -> String {
    use num_traits::Signed;
    if q.is_integer() {
        return q.to_integer().to_string();
    }
    let sign = if q.is_negative() { "-" } else { "" };
    format!("{sign}\\frac{{{}}}{{{}}}", q.numer().abs(), q.denom())
}
