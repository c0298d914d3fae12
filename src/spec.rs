//! Spec strings: `name` or `name(key=value,...)`, the common syntax of processes, potentials and
//! weight laws on the command line and in theorem files (`docs/conventions.md` §4).

use crate::error::{Error, Result};

/// A parsed spec string: a name and its `key=value` parameters in the order given.
///
/// ```
/// let s = balloc::spec::Spec::parse("d-choice(d=3)").unwrap();
/// assert_eq!(s.name, "d-choice");
/// assert_eq!(s.get_f64("d", 2.0).unwrap(), 3.0);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The registered name or alias (lower case as written).
    pub name: String,
    /// The parameters, in order.
    pub params: Vec<(String, String)>,
}

impl Spec {
    /// Parses `name`, `name()` or `name(k=v,...)`. A single bare value such as `exp(1)` is stored
    /// under the empty key.
    pub fn parse(text: &str) -> Result<Spec> {
        let text = text.trim();
        let bad = |why: &str| {
            Error::invalid(
                format!("spec `{}`", crate::error::excerpt(text)),
                why.to_string(),
            )
        };
        let (name, rest) = match text.find('(') {
            None => (text, None),
            Some(i) => {
                if !text.ends_with(')') {
                    return Err(bad("missing closing parenthesis"));
                }
                (&text[..i], Some(&text[i + 1..text.len() - 1]))
            }
        };
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '+')
        {
            return Err(bad("expected `name` or `name(key=value,...)`"));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            if rest.contains('(') || rest.contains(')') {
                return Err(bad("nested parentheses are not allowed"));
            }
            for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                match part.split_once('=') {
                    Some((k, v)) => {
                        let k = k.trim();
                        if k.is_empty() {
                            return Err(bad("empty parameter name"));
                        }
                        if params.iter().any(|(q, _): &(String, String)| q == k) {
                            return Err(bad(&format!("parameter `{k}` given twice")));
                        }
                        params.push((k.to_string(), v.trim().to_string()));
                    }
                    None => {
                        if !params.is_empty() {
                            return Err(bad("a bare value must be the only parameter"));
                        }
                        params.push((String::new(), part.to_string()));
                    }
                }
            }
        }
        Ok(Spec {
            name: name.to_ascii_lowercase(),
            params,
        })
    }

    /// The raw value of parameter `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Rejects parameters not in `accepted` (the empty key stands for a bare value, which is
    /// mapped to `accepted[0]` by [`Spec::with_bare_as`]).
    /// ```
    /// let s = balloc::spec::Spec::parse("gamma(alpha=1,beta=2)").unwrap();
    /// assert!(s.check_keys(&["alpha", "beta"]).is_ok());
    /// assert!(s.check_keys(&["alpha"]).unwrap_err().to_string().contains("beta"));
    /// ```
    pub fn check_keys(&self, accepted: &[&str]) -> Result<()> {
        for (k, _) in &self.params {
            if !accepted.contains(&k.as_str()) {
                let what = if k.is_empty() { "(bare value)" } else { k };
                return Err(Error::unknown(
                    format!("parameter of `{}`", self.name),
                    what,
                    if accepted.is_empty() {
                        &["(none)"]
                    } else {
                        accepted
                    },
                ));
            }
        }
        Ok(())
    }

    /// Renames a bare value (`exp(1)`) to the named parameter `key` (`exp(mean=1)`).
    pub fn with_bare_as(mut self, key: &str) -> Spec {
        for (k, _) in &mut self.params {
            if k.is_empty() {
                *k = key.to_string();
            }
        }
        self
    }

    /// A finite floating-point parameter with a default.
    pub fn get_f64(&self, key: &str, default: f64) -> Result<f64> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => parse_f64(v).map_err(|why| {
                Error::invalid(format!("parameter `{key}` of `{}`", self.name), why)
            }),
        }
    }

    /// A non-negative integer parameter with a default.
    pub fn get_u64(&self, key: &str, default: u64) -> Result<u64> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v.parse::<u64>().map_err(|_| {
                Error::invalid(
                    format!("parameter `{key}` of `{}`", self.name),
                    format!(
                        "expected a non-negative integer, got `{}`",
                        crate::error::excerpt(v)
                    ),
                )
            }),
        }
    }

    /// A string parameter restricted to `choices`, with a default.
    pub fn get_choice(&self, key: &str, choices: &[&str], default: &str) -> Result<String> {
        match self.get(key) {
            None => Ok(default.to_string()),
            Some(v) if choices.contains(&v) => Ok(v.to_string()),
            Some(v) => Err(Error::unknown(
                format!("value of parameter `{key}` of `{}`", self.name),
                v,
                choices,
            )),
        }
    }
}

/// Parses a finite `f64`, accepting simple fractions `a/b`.
///
/// ```
/// assert_eq!(balloc::spec::parse_f64("1/4").unwrap(), 0.25);
/// assert!(balloc::spec::parse_f64("nan").is_err());
/// ```
pub fn parse_f64(v: &str) -> std::result::Result<f64, String> {
    let v = v.trim();
    let bad = || format!("expected a number, got `{}`", crate::error::excerpt(v));
    let x = if let Some((a, b)) = v.split_once('/') {
        let a: f64 = a.trim().parse().map_err(|_| bad())?;
        let b: f64 = b.trim().parse().map_err(|_| bad())?;
        a / b
    } else {
        v.parse::<f64>().map_err(|_| bad())?
    };
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!(
            "expected a finite number, got `{}`",
            crate::error::excerpt(v)
        ))
    }
}

/// Parses a decimal (`0.7`, `-1.25e-3`), an integer or a fraction (`1/3`) into an exact rational.
/// The rational is the number as written, not its binary floating-point approximation.
///
/// ```
/// use balloc::exact::Q;
/// use balloc::exact::Int;
/// let r = balloc::spec::parse_ratio("0.7").unwrap();
/// assert_eq!(r, Q::new(Int::from(7), Int::from(10)));
/// assert_eq!(balloc::spec::parse_ratio("1/3").unwrap(), Q::new(1.into(), 3.into()));
/// // Exact numbers are bounded (limits::DECIMAL_EXPONENT): 10^(10^9) is refused at once.
/// assert!(balloc::spec::parse_ratio("1e1000000000").is_err());
/// assert!(balloc::spec::parse_ratio("1/2/3").is_err());
/// ```
pub fn parse_ratio(v: &str) -> std::result::Result<crate::exact::Q, String> {
    use crate::exact::{Int, Q};
    let v = v.trim();
    let err = || format!("expected a number, got `{}`", crate::error::excerpt(v));
    if let Some((a, b)) = v.split_once('/') {
        if b.contains('/') {
            return Err(format!(
                "expected a number or one fraction a/b, got `{}`",
                crate::error::excerpt(v)
            ));
        }
        let a = parse_ratio(a)?;
        let b = parse_ratio(b)?;
        if b == Q::from_integer(0.into()) {
            return Err(format!("division by zero in `{v}`"));
        }
        return Ok(a / b);
    }
    let (mant, exp) = match v.find(['e', 'E']) {
        Some(i) => (&v[..i], v[i + 1..].parse::<i64>().map_err(|_| err())?),
        None => (v, 0),
    };
    // Sizes of the exact number, checked before any big-integer arithmetic.
    let digits = mant.len() as u64;
    crate::limits::DECIMAL_DIGITS
        .check(&format!("number `{}`", crate::error::excerpt(v)), digits)
        .map_err(|e| e.to_string())?;
    crate::limits::DECIMAL_EXPONENT
        .check(
            &format!("exponent of `{}`", crate::error::excerpt(v)),
            exp.unsigned_abs(),
        )
        .map_err(|e| e.to_string())?;
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant.strip_prefix('+').unwrap_or(mant)),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
    {
        return Err(err());
    }
    let digits: Int = format!("0{int}{frac}").parse().map_err(|_| err())?;
    // |exp| and frac.len() are within their limits, so this cannot overflow.
    let scale = exp - frac.len() as i64;
    let ten = Int::from(10);
    let mut r = Q::from_integer(digits);
    if scale >= 0 {
        r *= Q::from_integer(num_traits::pow(ten, scale as usize));
    } else {
        r /= Q::from_integer(num_traits::pow(ten, (-scale) as usize));
    }
    Ok(if neg { -r } else { r })
}

impl Spec {
    /// A parameter as an exact rational (as written) together with its `f64` value.
    pub fn get_ratio(&self, key: &str, default: &str) -> Result<(f64, crate::exact::Q)> {
        let raw = self.get(key).unwrap_or(default);
        let what = || format!("parameter `{key}` of `{}`", self.name);
        let f = parse_f64(raw).map_err(|e| Error::invalid(what(), e))?;
        let r = parse_ratio(raw).map_err(|e| Error::invalid(what(), e))?;
        Ok((f, r))
    }
}
