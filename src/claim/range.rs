//! Constants that range over an interval of the real line, `[constants] eps = "(0, 1/2]"`: the
//! claim is stated for every value in the range, and at each searched state it is a claim in
//! the range constants alone, decided over the whole range by bisection of boxes with
//! certified enclosures ([`decide_over`]).
//!
//! The papers quantify this way ("for all ε ∈ (0, 1/2]", "there is α₀ such that for all
//! α ≤ α₀": e.g. the drift lemma of the Γ potential, Los–Sauerwald SPAA 2022, §3), where a grid
//! of values checks instances only.
//!
//! A box is decided when the claim's enclosure over the box is decided (true: every point of
//! the box holds; false: every point fails, and a point of the box inside the range is then
//! certified on its own). An undecided box is split in halves after its midpoint is certified
//! as a point (a failing midpoint is a counterexample). A claim tight at an end of its range
//! (both sides equal in the limit) leaves boxes at that end undecided at any width: the state
//! is then reported undecided with the smallest box left, never proved.

use crate::exact::Q;
use crate::lang::{Eval, EvalError, Expr};
use num_traits::{Signed, Zero};

/// The most boxes examined per state and range claim (`limits::RANGE_BOXES`).
pub const RANGE_BOXES: usize = crate::limits::RANGE_BOXES.max as usize;

/// Boxes narrower than 2^-`RANGE_DEPTH` of their range are not split further.
pub const RANGE_DEPTH: u32 = 40;

/// A range of a constant as written: `(lo, hi]`, `[lo, hi]`, `(lo, hi)`, `[lo, hi)`, the ends
/// expressions over `n`, `b` and the constants that are not ranges.
#[derive(Debug, Clone)]
pub struct RangeDef {
    /// As written.
    pub text: String,
    /// The lower end, compiled over slot 0 = `n`, 1 = `b`, `2 + j` = constant `j`.
    pub lo: Expr,
    /// The upper end.
    pub hi: Expr,
    /// Whether the lower end is excluded.
    pub lo_open: bool,
    /// Whether the upper end is excluded.
    pub hi_open: bool,
}

/// The parts of a range text: `(lo_open, lo, hi, hi_open)`, or `None` when the text is not a
/// range (an expression: no comma outside parentheses between the outer brackets).
///
/// ```
/// use balloc::claim::range::split;
/// assert_eq!(
///     split("(0, 1/2]"),
///     Some((true, "0".to_string(), "1/2".to_string(), false))
/// );
/// assert_eq!(
///     split("[1/ln(n), min(1, 2)]"),
///     Some((false, "1/ln(n)".to_string(), "min(1, 2)".to_string(), false))
/// );
/// assert_eq!(split("(n + 1)/2"), None);
/// assert_eq!(split("1/2"), None);
/// ```
pub fn split(text: &str) -> Option<(bool, String, String, bool)> {
    let t = text.trim();
    let first = t.chars().next()?;
    let last = t.chars().last()?;
    if !matches!(first, '(' | '[') || !matches!(last, ')' | ']') || t.len() < 2 {
        return None;
    }
    let inner = &t[1..t.len() - 1];
    let mut depth = 0i32;
    let mut comma = None;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    // `(a)*(b)`: the outer brackets do not enclose the text.
                    return None;
                }
            }
            ',' if depth == 0 => {
                if comma.is_some() {
                    return None;
                }
                comma = Some(i);
            }
            _ => {}
        }
    }
    let i = comma?;
    Some((
        first == '(',
        inner[..i].trim().to_string(),
        inner[i + 1..].trim().to_string(),
        last == ')',
    ))
}

/// The texts of the sample points of a range, the values the float search runs at: each closed
/// end, each open end moved inward by 1/64 of the width, and the midpoint.
///
/// ```
/// use balloc::claim::range::sample_texts;
/// assert_eq!(
///     sample_texts(true, "0", "1/2", false),
///     vec!["(0) + ((1/2) - (0))/64", "((0) + (1/2))/2", "1/2"]
/// );
/// ```
pub fn sample_texts(lo_open: bool, lo: &str, hi: &str, hi_open: bool) -> Vec<String> {
    let low = if lo_open {
        format!("({lo}) + (({hi}) - ({lo}))/64")
    } else {
        lo.to_string()
    };
    let high = if hi_open {
        format!("({hi}) - (({hi}) - ({lo}))/64")
    } else {
        hi.to_string()
    };
    vec![low, format!("(({lo}) + ({hi}))/2"), high]
}

/// The range of constant `j` at one case: exact rational ends.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeAt {
    /// The constant's index.
    pub j: usize,
    /// The constant's name.
    pub name: String,
    /// The lower end.
    pub lo: Q,
    /// The upper end.
    pub hi: Q,
    /// Whether the lower end is excluded.
    pub lo_open: bool,
    /// Whether the upper end is excluded.
    pub hi_open: bool,
}

impl RangeAt {
    /// Whether `q` lies in the range.
    ///
    /// ```
    /// use balloc::claim::range::RangeAt;
    /// use balloc::exact::Q;
    /// let r = RangeAt { j: 0, name: "eps".into(), lo: Q::from_integer(0.into()),
    ///     hi: Q::new(1.into(), 2.into()), lo_open: true, hi_open: false };
    /// assert!(!r.contains(&Q::from_integer(0.into())));
    /// assert!(r.contains(&Q::new(1.into(), 2.into())));
    /// assert!(r.contains(&Q::new(1.into(), 1000.into())));
    /// ```
    pub fn contains(&self, q: &Q) -> bool {
        let above = if self.lo_open {
            q > &self.lo
        } else {
            q >= &self.lo
        };
        let below = if self.hi_open {
            q < &self.hi
        } else {
            q <= &self.hi
        };
        above && below
    }

    /// The range as text, `(0, 1/2]`.
    pub fn text(&self) -> String {
        format!(
            "{}{}, {}{}",
            if self.lo_open { '(' } else { '[' },
            self.lo,
            self.hi,
            if self.hi_open { ')' } else { ']' }
        )
    }
}

/// A closed box: `(constant, lo, hi)` per range constant.
pub type RangeBox = Vec<(usize, Q, Q)>;

/// A point: `(constant, value)` per range constant.
pub type RangePoint = Vec<(usize, Q)>;

/// How a claim fared over the ranges at one state.
#[derive(Debug, Clone, PartialEq)]
pub enum BoxOutcome {
    /// Every box decided true: the claim holds at every point of the ranges.
    Proved {
        /// The boxes examined.
        boxes: usize,
    },
    /// A point of the ranges where the claim was certified false.
    Refuted {
        /// The point.
        point: RangePoint,
        /// The boxes examined.
        boxes: usize,
    },
    /// A box neither decided nor split further (too narrow or the budget spent).
    Undecided {
        /// The box.
        at: RangeBox,
        /// Why it was left.
        why: String,
        /// The boxes examined.
        boxes: usize,
    },
}

/// A box or point as text, `eps ∈ [0, 1/64]`, `eps = 1/4`.
pub fn box_text(ranges: &[RangeAt], b: &RangeBox) -> String {
    b.iter()
        .map(|(j, lo, hi)| {
            let name = ranges
                .iter()
                .find(|r| r.j == *j)
                .map(|r| r.name.as_str())
                .unwrap_or("?");
            if lo == hi {
                format!("{name} = {lo}")
            } else {
                format!("{name} ∈ [{lo}, {hi}]")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn midpoint(b: &RangeBox) -> RangePoint {
    b.iter()
        .map(|(j, lo, hi)| (*j, (lo + hi) / Q::from_integer(2.into())))
        .collect()
}

/// Decides a claim over the closed hull of `ranges` by bisection: `on_box` decides the claim
/// over a box in a certified domain (`Ok(true)`: holds at every point; `Ok(false)`: fails at
/// every point; an [`EvalError::Undecided`] or [`EvalError::Unavailable`]: the domain cannot
/// tell), `on_point` certifies it at a point (`Some(holds)`, `None` when undecided). A
/// refutation is always a point inside the ranges (open ends excluded) that `on_point`
/// certified false; `Proved` needs every box decided true. Other errors are returned.
///
/// ```
/// use balloc::claim::range::{decide_over, BoxOutcome, RangeAt};
/// use balloc::exact::Q;
/// use balloc::lang::EvalError;
/// let q = |a: i64, b: i64| Q::new(a.into(), b.into());
/// let r = vec![RangeAt { j: 0, name: "e".into(), lo: q(0, 1), hi: q(1, 2),
///     lo_open: true, hi_open: false }];
/// // e(1 − e) ≤ 3/10 on (0, 1/2], by interval arithmetic on each box (the hull of e(1 − e) is
/// // [lo(1 − hi), hi(1 − lo)]; at most 1/4 < 3/10, decided once hi(1 − lo) ≤ 3/10: on [0, 1/2]
/// // the bound is 1/2, on [0, 1/4] 1/4, on [1/4, 1/2] 3/8, on [1/4, 3/8] 9/32 and on [3/8, 1/2]
/// // 5/16, on [3/8, 7/16] 63/256, on [7/16, 1/2] 9/32: seven boxes in all).
/// let holds = |b: &[(usize, Q, Q)]| {
///     let (lo, hi) = (&b[0].1, &b[0].2);
///     let upper = hi * (Q::from_integer(1.into()) - lo);
///     if upper <= q(3, 10) { Ok(true) } else { Err(EvalError::Undecided("overlap".into())) }
/// };
/// let point = |p: &[(usize, Q)]| Some(&p[0].1 * (Q::from_integer(1.into()) - &p[0].1) <= q(3, 10));
/// assert_eq!(decide_over(&r, 512, holds, point).unwrap(), BoxOutcome::Proved { boxes: 7 });
/// // e ≤ 3/8 fails at the midpoint 1/4 + …: refuted at a certified point of the range.
/// let b = |bx: &[(usize, Q, Q)]| {
///     if bx[0].2 <= q(3, 8) { Ok(true) } else if bx[0].1 > q(3, 8) { Ok(false) }
///     else { Err(EvalError::Undecided("overlap".into())) }
/// };
/// let p = |pt: &[(usize, Q)]| Some(pt[0].1 <= q(3, 8));
/// match decide_over(&r, 512, b, p).unwrap() {
///     BoxOutcome::Refuted { point, .. } => assert!(point[0].1 > q(3, 8) && point[0].1 <= q(1, 2)),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn decide_over(
    ranges: &[RangeAt],
    max_boxes: usize,
    mut on_box: impl FnMut(&[(usize, Q, Q)]) -> Eval<bool>,
    mut on_point: impl FnMut(&[(usize, Q)]) -> Option<bool>,
) -> Eval<BoxOutcome> {
    let whole: RangeBox = ranges
        .iter()
        .map(|r| (r.j, r.lo.clone(), r.hi.clone()))
        .collect();
    let widths: Vec<Q> = ranges.iter().map(|r| &r.hi - &r.lo).collect();
    let inside = |p: &RangePoint| {
        p.iter()
            .all(|(j, v)| ranges.iter().any(|r| r.j == *j && r.contains(v)))
    };
    let mut stack = vec![whole];
    let mut boxes = 0usize;
    let mut last = String::new();
    while let Some(b) = stack.pop() {
        boxes += 1;
        if boxes > max_boxes {
            return Ok(BoxOutcome::Undecided {
                at: b,
                why: format!(
                    "the budget of {max_boxes} boxes was spent: {}",
                    crate::lang::syntax::excerpt(&last, 200)
                ),
                boxes: boxes - 1,
            });
        }
        let mid = midpoint(&b);
        match on_box(&b) {
            Ok(true) => continue,
            Ok(false) => {
                // Every point of the box fails: its midpoint (inside the ranges unless the box
                // is a single excluded point) is certified on its own.
                if inside(&mid) && on_point(&mid) == Some(false) {
                    return Ok(BoxOutcome::Refuted { point: mid, boxes });
                }
            }
            Err(EvalError::Undecided(why)) | Err(EvalError::Unavailable(why)) => {
                last = why;
                if inside(&mid) && on_point(&mid) == Some(false) {
                    return Ok(BoxOutcome::Refuted { point: mid, boxes });
                }
            }
            Err(e) => return Err(e),
        }
        // Split the widest side relative to its range.
        let rel = |k: usize| {
            if widths[k].is_zero() {
                Q::zero()
            } else {
                (&b[k].2 - &b[k].1) / &widths[k]
            }
        };
        let k = (0..b.len())
            .max_by(|&a, &c| rel(a).cmp(&rel(c)).then(c.cmp(&a)))
            .expect("a range");
        let floor = Q::new(1.into(), crate::exact::Int::from(2u8).pow(RANGE_DEPTH));
        if rel(k) <= floor || rel(k).is_negative() || rel(k).is_zero() {
            return Ok(BoxOutcome::Undecided {
                at: b,
                why: format!(
                    "no certified evaluation decides this box, narrower than 2^-{RANGE_DEPTH} of its range: {}",
                    crate::lang::syntax::excerpt(&last, 200)
                ),
                boxes,
            });
        }
        let m = mid[k].1.clone();
        let mut left = b.clone();
        left[k].2 = m.clone();
        let mut right = b;
        right[k].1 = m;
        // Depth first, the left half first.
        stack.push(right);
        stack.push(left);
    }
    Ok(BoxOutcome::Proved { boxes })
}
