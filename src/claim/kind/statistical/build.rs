//! Compiling a statistical file: the scope of its expressions (`n`, `b`, `m`, the constants and,
//! per configuration of graph sources, `d`, `k`, `untouched`), the grid fields (`balls`, `batch`,
//! `runs`, `confidence`, `checkpoints`, `start`, `burn_in`), and [`build`], which checks the
//! section field by field in a fixed order (the first problem found is the one reported) and
//! assembles a [`Statistical`].
//!
//! The statistic's fields are compiled in [`super::statistic`], the claim's in [`super::claim`],
//! the sources in [`super::sources`], the curves of a growth fit in [`super::growth`].

use super::builder::{Builder, Built};
use super::claim::{Over, Test};
use super::section::{ClaimSection, NumOrExpr, OneOrMany, Strategies};
use super::sources::Source;
use super::statistic::Stat;
use super::{GRAPH_NAMES, SOURCE_BETA, StartSpec, Statistical};
use crate::claim::kind::Check;
use crate::claim::schema::{ConstValue, FileError, Theorem};

use crate::lang::Expr;

impl<'a> Builder<'a> {
    /// Reads the section and the file's constants (single values only; every constant of
    /// `[tighten]` must be one; with graph sources none may be named `d`, `k` or `untouched`).
    fn new(t: &'a Theorem) -> Built<Self> {
        let c: toml::Spanned<ClaimSection> = t.claim_section()?;
        let at = Some(c.span().start);
        let span = c.span();
        let cs = c.into_inner();
        let mut names = vec!["n".to_string(), "b".to_string(), "m".to_string()];
        let mut consts = Vec::new();
        for (name, v) in &t.file.constants {
            match v.get_ref() {
                ConstValue::One(s) => {
                    let (f, _) = s.value().map_err(|e| {
                        t.error_at(Some(v.span().start), format!("constant `{name}`: {e}"))
                    })?;
                    names.push(name.clone());
                    consts.push(f);
                }
                ConstValue::Grid(_) => {
                    return Err(t.error_at(
                        Some(v.span().start),
                        format!(
                            "constant `{name}`: the statistical kind takes single-valued constants"
                        ),
                    ));
                }
            }
        }
        for name in t.file.tighten.keys() {
            if !names[3..].contains(name) {
                return Err(t.error_at(
                    None,
                    format!("[tighten] `{name}` is not a constant of the file"),
                ));
            }
        }
        // With graph sources, the fields evaluated per configuration (the claim's rhs, q,
        // relative_to, subtract) also know `d` and `k`: the degree and edge connectivity of the
        // configuration's graph. Their slots follow the constants (placeholders elsewhere, so
        // slot numbers agree).
        if cs.graph.is_some()
            && let Some(c) = names[3..]
                .iter()
                .find(|c| GRAPH_NAMES.contains(&c.as_str()))
        {
            return Err(t.error_at(
                None,
                format!(
                    "constant `{c}`: with `[claim] graph` the names d, k and untouched are the graph's degree, edge connectivity and coupon-collector probability"
                ),
            ));
        }
        Ok(Builder {
            t,
            cs,
            span,
            at,
            names,
            consts,
        })
    }

    /// Where field `name` is written (the section's start when it is not found).
    pub fn field_at(&self, name: &str) -> Option<usize> {
        self.t.find_in(self.span.clone(), name).or(self.at)
    }

    /// The error `[claim] name: msg` at the field.
    pub fn bad(&self, name: &str, msg: String) -> FileError {
        self.t
            .error_at(self.field_at(name), format!("[claim] {name}: {msg}"))
    }

    /// Compiles the expression `text` of `field`. In scope: the first `allowed` of `n`, `b`, `m`
    /// (names not yet defined at this field, b in a batch, m in balls, are out of scope), the
    /// constants, and in the per-configuration fields (`mean`, `probability`, `q`, `relative_to`,
    /// `subtract`) with graph sources `d`, `k`, `untouched`, and with any sources `beta`, the
    /// source's β (their slots are placeholders elsewhere).
    pub fn comp(&self, text: &str, field: &str, allowed: usize) -> Built<Expr> {
        let mut scoped: Vec<&str> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i < allowed || i >= 3 {
                    n.as_str()
                } else {
                    "\u{0}"
                }
            })
            .collect();
        let per_configuration = matches!(
            field,
            "mean" | "probability" | "q" | "relative_to" | "subtract"
        );
        let per_point = self.cs.graph.is_some() && per_configuration;
        if per_point {
            scoped.extend(GRAPH_NAMES);
        } else {
            scoped.extend(["\u{0}"; 3]);
        }
        // Every source's β in the same fields, unless a constant of that name shadows it.
        let source_beta = per_configuration && !self.names[3..].iter().any(|c| c == SOURCE_BETA);
        scoped.push(if source_beta { SOURCE_BETA } else { "\u{0}" });
        crate::lang::compile_value(text, &scoped).map_err(|err| {
            let mut known: Vec<&str> = self.names[..allowed].iter().map(|s| s.as_str()).collect();
            known.extend(self.names[3..].iter().map(|s| s.as_str()));
            if per_point {
                known.extend(GRAPH_NAMES);
            }
            if source_beta {
                known.push(SOURCE_BETA);
            }
            self.bad(
                field,
                format!("`{text}`: {} (known: {})", err.message, known.join(", ")),
            )
        })
    }

    /// [`Builder::comp`] of an optional number or expression.
    fn comp_opt(&self, e: Option<&NumOrExpr>, field: &str, allowed: usize) -> Built<Option<Expr>> {
        e.map(|e| self.comp(&e.text(), field, allowed)).transpose()
    }

    /// The start state: `empty`, `one-bin(<balls in n>)`, `gap(<gap in n>)` or `start_loads`.
    fn start(&self) -> Built<StartSpec> {
        let cs = &self.cs;
        Ok(
            match (cs.start.as_deref().map(str::trim), &cs.start_loads) {
                (None | Some("empty"), None) => StartSpec::Empty,
                (None | Some("loads"), Some(v)) => StartSpec::Loads(v.clone()),
                (Some(s), None) => {
                    let arg = |name: &str| {
                        s.strip_prefix(name)
                            .and_then(|r| r.trim().strip_prefix('('))
                            .and_then(|r| r.strip_suffix(')'))
                    };
                    if let Some(a) = arg("one-bin") {
                        StartSpec::OneBin(self.comp(a, "start", 1)?)
                    } else if let Some(a) = arg("gap") {
                        StartSpec::Gap(self.comp(a, "start", 1)?)
                    } else {
                        return Err(self.bad(
                            "start",
                            format!(
                                "unknown start state `{s}`; accepted: empty, one-bin(<balls in n>), gap(<gap in n>), or a load vector in `start_loads`"
                            ),
                        ));
                    }
                }
                (Some(_), Some(_)) => {
                    return Err(self.bad(
                        "start_loads",
                        "give either `start` or `start_loads`, not both".into(),
                    ));
                }
            },
        )
    }

    /// `q` of a probability claim (and only of one).
    fn q(&self, test: Test) -> Built<Option<Expr>> {
        match (&self.cs.q, test) {
            (Some(q), Test::Probability(_)) => Ok(Some(self.comp(&q.text(), "q", 3)?)),
            (None, Test::Probability(_)) => Err(self.bad(
                "q",
                "a probability claim needs `q` (P[X <= rhs] >= 1 - q)".into(),
            )),
            (Some(_), _) => Err(self.bad("q", "only used with `probability`".into())),
            (None, _) => Ok(None),
        }
    }

    /// The numbers of balls (expressions in `n`, `b`).
    fn balls(&self) -> Built<Vec<Expr>> {
        match &self.cs.balls {
            OneOrMany::One(e) => Ok(vec![self.comp(&e.text(), "balls", 2)?]),
            OneOrMany::Many(v) if v.is_empty() => {
                Err(self.bad("balls", "lists no number of balls".into()))
            }
            OneOrMany::Many(v) => v.iter().map(|e| self.comp(&e.text(), "balls", 2)).collect(),
        }
    }

    /// The batch sizes (expressions in `n`; `[setting] batch` by default).
    fn batch(&self) -> Built<Vec<Expr>> {
        let t = self.t;
        match &self.cs.batch {
            Some(v) if v.is_empty() => Err(self.bad("batch", "lists no batch size".into())),
            Some(v) => v.iter().map(|b| self.comp(&b.text(), "batch", 1)).collect(),
            None => Ok(vec![
                self.comp(&t.file.setting.batch.to_string(), "batch", 1)
                    .map_err(|e| t.error_at(None, e.message))?,
            ]),
        }
    }

    /// Checks `runs` (at least 2) and `confidence` (in (0, 1)); returns `checkpoints`
    /// (default 100, at least 1).
    fn checkpoints(&self) -> Built<usize> {
        let cs = &self.cs;
        if cs.runs < 2 {
            return Err(self.bad(
                "runs",
                format!(
                    "must be at least 2 (an interval needs two runs), got {}",
                    cs.runs
                ),
            ));
        }
        if !(cs.confidence > 0.0 && cs.confidence < 1.0) {
            return Err(self.bad(
                "confidence",
                format!("must lie in (0, 1), got {}", cs.confidence),
            ));
        }
        let checkpoints = cs.checkpoints.unwrap_or(100);
        if checkpoints == 0 {
            return Err(self.bad("checkpoints", "must be at least 1".into()));
        }
        Ok(checkpoints)
    }

    /// Checks `[domain] n` (and `long_n`): plain sizes, none zero.
    fn check_domain(&self) -> Built<()> {
        let t = self.t;
        let d = t.file.domain.get_ref();
        crate::claim::setup::plain_ns(t)?;
        if let Some(&n) = d.n.iter().chain(&self.cs.long_n).find(|&&n| n == 0) {
            return Err(t.error_at(
                Some(t.file.domain.span().start),
                format!("[domain] n: {n} bins"),
            ));
        }
        Ok(())
    }

    /// Whether the notes name the worst source per grid point: mean and probability claims over
    /// class sources, several strategies or hitting times.
    fn report_worst(&self, check: &Statistical) -> bool {
        matches!(check.test, Test::Mean(_) | Test::Probability(_))
            && (check.sources.iter().any(|s| matches!(s, Source::Class(_)))
                || check.stat == Stat::HittingTime
                || matches!(&self.cs.strategy, Some(Strategies::Many(v)) if v.len() > 1))
    }

    /// Which per-source names the per-configuration fields read (`untouched`; `d`, `k`, also read
    /// by a fit in `d/k`; `beta`, then every source's β, which every source must have), and the
    /// checks of `untouched` (beta = 1, the empty start, no burn-in).
    fn source_names_read(&self, check: &mut Statistical, over: Over) -> Built<()> {
        let dk_slots = [check.names.len(), check.names.len() + 1];
        let untouched_slot = check.names.len() + 2;
        let fields: Vec<&Expr> = [
            Some(&check.rhs),
            check.q.as_ref(),
            check.relative_to.as_ref(),
        ]
        .into_iter()
        .flatten()
        .chain(check.subtract.as_ref().map(|s| &s.0))
        .collect();
        check.uses_untouched = fields
            .iter()
            .any(|e| e.uses().slots.contains(&untouched_slot));
        if check.uses_untouched
            && check
                .sources
                .iter()
                .any(|s| matches!(s, Source::Graph(g) if g.beta != 1.0))
        {
            return Err(self.bad(
                "beta",
                "`untouched` assumes an edge request at every step (beta = 1)".into(),
            ));
        }
        if check.uses_untouched
            && (check.burn_in.is_some() || !matches!(check.start, StartSpec::Empty))
        {
            return Err(self.bad(
                if check.burn_in.is_some() { "burn_in" } else { "start" },
                "`untouched` bounds the spread from the empty start only (an untouched vertex then holds 0 balls)".into(),
            ));
        }
        // `beta`: every source must have one; the error names the first field that reads it.
        let beta_slot = check.names.len() + GRAPH_NAMES.len();
        let claim_field = if matches!(check.test, Test::Mean(_)) {
            "mean"
        } else {
            "probability"
        };
        let named = [
            (claim_field, Some(&check.rhs)),
            ("q", check.q.as_ref()),
            ("relative_to", check.relative_to.as_ref()),
            ("subtract", check.subtract.as_ref().map(|s| &s.0)),
        ];
        if let Some((field, _)) = named
            .iter()
            .find(|(_, e)| e.is_some_and(|e| e.uses().slots.contains(&beta_slot)))
        {
            check.source_beta = check
                .sources
                .iter()
                .enumerate()
                .map(|(i, src)| match src.param(SOURCE_BETA) {
                    Some(Ok(b)) if b > 0.0 => Ok(b),
                    _ => Err(self.bad(
                        field,
                        format!(
                            "`beta` is each source's β (the process parameter `beta`, an md `one-plus-beta` choice or `[claim] beta`); source {} ({}) has no positive `beta`",
                            i + 1,
                            src.label()
                        ),
                    )),
                })
                .collect::<Built<Vec<f64>>>()?;
        }
        check.uses_dk = over == Over::DOverK && self.cs.exponent.is_some()
            || fields
                .iter()
                .any(|e| e.uses().slots.iter().any(|s| dk_slots.contains(s)));
        Ok(())
    }

    /// Validates the grid: at every `n` of `[domain]`, the batch sizes and numbers of balls
    /// evaluate, and so do the burn-in and the start state.
    fn validate_grid(&self, check: &Statistical) -> Built<()> {
        let t = self.t;
        for &n in &t.file.domain.get_ref().n {
            for b in &check.batch {
                let bv = check
                    .batch_at(n, b)
                    .map_err(|e| t.error_at(self.at, e.to_string()))?;
                for me in &check.balls {
                    check
                        .balls_at(n, bv, me)
                        .map_err(|e| t.error_at(self.at, e.to_string()))?;
                }
                check
                    .burn_in_at(n, bv)
                    .map_err(|e| t.error_at(self.field_at("burn_in"), e.to_string()))?;
                check
                    .start_at(n)
                    .map_err(|e| t.error_at(self.field_at("start"), e.to_string()))?;
            }
        }
        Ok(())
    }
}

/// Compiles a statistical file into its check (the entry of [`super::INFO`]).
pub(super) fn build(t: &Theorem) -> Built<Box<dyn Check>> {
    let b = Builder::new(t)?;
    let stat = b.statistic()?;
    let until = b.until(stat)?;
    let (below, level) = b.thresholds(stat)?;
    b.check_potential(stat, until.as_ref())?;
    let claim = b.claim()?;
    let cs = &b.cs;
    let relative_to = match &cs.relative_to {
        Some(r) => Some(b.comp(r, "relative_to", 3)?),
        None => None,
    };
    let subtract = match &cs.subtract {
        Some(e) => Some((b.comp(&e.text(), "subtract", 3)?, e.text())),
        None => None,
    };
    let burn_in = b.comp_opt(cs.burn_in.as_ref(), "burn_in", 2)?;
    let start = b.start()?;
    let q = b.q(claim.test)?;
    let balls = b.balls()?;
    let batch = b.batch()?;
    let checkpoints = b.checkpoints()?;
    let (mut sources, beta_values) = b.sources(stat)?;
    sources.extend(b.class_sources()?);
    let (refresh, adversarial) = b.check_sources(&sources, claim.test)?;
    let betas = b.betas(&sources, claim.over)?;
    let (curve, curves) = b.curves(&sources, claim.over, beta_values.len())?;
    b.check_domain()?;
    let every = b.comp_opt(cs.every.as_ref(), "every", 2)?;
    let mut check = Statistical {
        t: t.clone(),
        stat,
        test: claim.test,
        rhs: claim.rhs,
        q,
        balls,
        batch,
        runs: cs.runs,
        seed: cs.seed,
        confidence: cs.confidence,
        potential: cs.potential.clone(),
        checkpoints,
        sources,
        weights: t.file.setting.weights.get_ref().clone(),
        ties: t.file.setting.ties.name().to_string(),
        long_n: cs.long_n.clone(),
        start,
        burn_in,
        steady_state: cs.steady_state,
        relative_to,
        below,
        level,
        exponent_hi: claim.exponent_hi,
        subtract,
        betas,
        curve,
        curves,
        uses_dk: false,
        uses_untouched: false,
        source_beta: Vec::new(),
        refresh,
        adversarial,
        every,
        until,
        report_worst: false,
        names: b.names.clone(),
        consts: b.consts.clone(),
    };
    check.report_worst = b.report_worst(&check);
    b.source_names_read(&mut check, claim.over)?;
    b.validate_grid(&check)?;
    Ok(Box::new(check))
}
