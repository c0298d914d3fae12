//! How the names of a claim resolve: the [`Scope`] of a theorem file, which turns names into
//! slots ([`Quantity`]) and potentials ([`PotDef`]) as the expressions are compiled. Registered
//! potentials come from the registry (their parameters from `[setting] potentials` or the
//! constants of the same name), defined potentials from the file's `[potentials]` table or the
//! prelude ([`crate::claim::quantity::prelude`]).

use super::mean_bias;
use super::quantity::{
    ParamSource, PotDef, Quantity, SIMPLE, Stat, prelude, prelude_names, split_prefix,
    substitute_vectors,
};
use super::schema::{FileError, Theorem};
use super::setup::{Constants, compile_in, error_in_string};
use crate::lang::{Expr, Resolved, Scope};
use std::cell::RefCell;

/// The scope of a theorem file.
pub struct ClaimScope<'a> {
    t: &'a Theorem,
    constants: &'a Constants,
    /// The slots handed out so far.
    pub slots: RefCell<Vec<Quantity>>,
    /// The potentials used so far.
    pub pots: RefCell<Vec<PotDef>>,
    /// Declared registered potentials: (registry name, spec as written).
    declared: Vec<(String, crate::spec::Spec)>,
    /// δ and ε of `[setting.vectors]`, as the texts that stand for them in formulas (a number in
    /// parentheses or a constant's name).
    vectors: Option<(String, String)>,
    has_process: bool,
    /// Definitions being compiled (cycle detection).
    compiling: RefCell<Vec<String>>,
    /// An error found inside a definition, reported where the definition is written.
    pub deferred: RefCell<Option<FileError>>,
}

struct ConstOnly<'a>(&'a [String]);

impl Scope for ConstOnly<'_> {
    fn resolve(&self, name: &str) -> Result<Option<Resolved>, String> {
        Ok(match name {
            "n" => Some(Resolved::Slot(0)),
            "b" => Some(Resolved::Slot(1)),
            _ => self
                .0
                .iter()
                .position(|c| c == name)
                .map(|j| Resolved::Slot(2 + j)),
        })
    }
    fn known(&self) -> Vec<(String, Vec<String>)> {
        vec![
            ("setting".into(), vec!["n".into(), "b".into()]),
            ("constants".into(), self.0.to_vec()),
        ]
    }
    fn has_process(&self) -> bool {
        false
    }
}

/// The registry entry whose name, alias or symbol is `name`.
fn registry(name: &str) -> Option<&'static crate::potential::PotentialInfo> {
    crate::potential::REGISTRY.iter().copied().find(|i| {
        i.name == name || i.aliases.contains(&name) || i.symbol.eq_ignore_ascii_case(name)
    })
}

fn registry_by_symbol(symbol: &str) -> Option<&'static crate::potential::PotentialInfo> {
    crate::potential::REGISTRY
        .iter()
        .copied()
        .find(|i| i.symbol == symbol)
}

impl<'a> ClaimScope<'a> {
    /// The scope of `t` with its constants; `vectors`: δ and ε of the vector quantifier;
    /// `has_process`: whether a process (or the vector quantifier) gives allocation vectors.
    pub fn new(
        t: &'a Theorem,
        constants: &'a Constants,
        vectors: Option<(String, String)>,
        has_process: bool,
    ) -> Result<ClaimScope<'a>, FileError> {
        let mut declared = Vec::new();
        for s in &t.file.setting.potentials {
            let spec = crate::spec::Spec::parse(s.get_ref())
                .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
            let info = registry(&spec.name).ok_or_else(|| {
                let names: Vec<&str> = crate::potential::REGISTRY.iter().map(|i| i.name).collect();
                t.error_at(
                    Some(s.span().start),
                    format!(
                        "unknown potential `{}`; accepted: {}",
                        spec.name,
                        names.join(", ")
                    ),
                )
            })?;
            let keys: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            let spec = if keys.len() == 1 {
                spec.with_bare_as(keys[0])
            } else {
                spec
            };
            spec.check_keys(&keys)
                .map_err(|e| t.error_at(Some(s.span().start), e.to_string()))?;
            declared.push((info.name.to_string(), spec));
        }
        for name in t.file.potentials.keys() {
            if SIMPLE.iter().any(|(s, _)| s == name)
                || constants.index(name).is_some()
                || registry_by_symbol(name).is_some()
                || mean_bias::lookup(name).is_some()
                || split_prefix(name)
                    .map(|(s, _)| s != Stat::Value)
                    .unwrap_or(true)
                || crate::lang::BinVar::parse(name).is_some()
                || crate::lang::expr::is_function_name(name, true)
            {
                return Err(t.error_at(
                    Some(t.file.potentials[name].span().start),
                    format!(
                        "[potentials] `{name}` is already a name of the language (a quantity, constant, function, prefix E_/dE_/R_ or per-bin name)"
                    ),
                ));
            }
        }
        for name in &constants.names {
            if SIMPLE.iter().any(|(s, _)| s == name)
                || registry_by_symbol(name).is_some()
                || mean_bias::lookup(name).is_some()
                || prelude(name).is_some()
                || name == "p"
                || name == "eps1"
            {
                return Err(t.error_at(
                    Some(t.file.constants[name].span().start),
                    format!("constant `{name}` shadows a built-in quantity"),
                ));
            }
        }
        Ok(ClaimScope {
            t,
            constants,
            slots: RefCell::new(Vec::new()),
            pots: RefCell::new(Vec::new()),
            declared,
            vectors,
            has_process,
            compiling: RefCell::new(Vec::new()),
            deferred: RefCell::new(None),
        })
    }

    fn slot(&self, q: Quantity) -> usize {
        let mut s = self.slots.borrow_mut();
        match s.iter().position(|x| *x == q) {
            Some(i) => i,
            None => {
                s.push(q);
                s.len() - 1
            }
        }
    }

    fn pot_index(&self, name: &str) -> Option<usize> {
        self.pots.borrow().iter().position(|p| p.name() == name)
    }

    /// The potential called `base` (compiling its definition on first use).
    fn potential(&self, base: &str) -> Result<Option<usize>, String> {
        if let Some(i) = self.pot_index(base) {
            return Ok(Some(i));
        }
        if let Some(def) = self.t.file.potentials.get(base) {
            let at = def.span().start;
            let text = def.get_ref().clone();
            let pd = if let Some(pd) = self.registered_spec(base, &text, at)? {
                pd
            } else {
                self.defined(base, &text, Some(at))?
            };
            return Ok(Some(self.push(pd)));
        }
        if let Some(info) = registry_by_symbol(base) {
            let pd = self.registered(base, info)?;
            return Ok(Some(self.push(pd)));
        }
        if let Some(text) = prelude(base) {
            let text = if text.contains("{vd}") {
                match &self.vectors {
                    Some((d, e)) => substitute_vectors(&text, d, e),
                    None => {
                        return Err(format!(
                            "`{base}` (the first-order term at the extremal vector q) needs [setting.vectors]"
                        ));
                    }
                }
            } else {
                text
            };
            let pd = self.defined(base, &text, None)?;
            return Ok(Some(self.push(pd)));
        }
        Ok(None)
    }

    fn push(&self, pd: PotDef) -> usize {
        let mut p = self.pots.borrow_mut();
        p.push(pd);
        p.len() - 1
    }

    /// A registered potential by its symbol, parameters from the declared spec, the constants
    /// of the same name, or the defaults.
    fn registered(
        &self,
        symbol: &str,
        info: &'static crate::potential::PotentialInfo,
    ) -> Result<PotDef, String> {
        let declared = self.declared.iter().find(|(n, _)| n == info.name);
        if !self.declared.is_empty() && declared.is_none() {
            let names: Vec<&str> = self.declared.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!(
                "the claim uses {} (`{symbol}`) but [setting] potentials lists only {}",
                info.name,
                names.join(", ")
            ));
        }
        let mut params = Vec::new();
        for p in info.params {
            let src = if let Some(v) = declared.and_then(|(_, s)| s.get(p.name)) {
                ParamSource::Literal(v.to_string())
            } else if let Some(j) = self.constants.index(p.name) {
                ParamSource::Expr(Expr::Slot(2 + j))
            } else if let Some(d) = p.default {
                ParamSource::Literal(d.to_string())
            } else {
                return Err(format!(
                    "`{symbol}` needs its parameter `{}`: define the constant `{}` or declare it in [setting] potentials, e.g. \"{}\"",
                    p.name, p.name, info.example
                ));
            };
            params.push((p.name.to_string(), src));
        }
        Ok(PotDef::Registered {
            symbol: symbol.to_string(),
            info,
            params,
        })
    }

    /// `[potentials] Name = "phi(alpha = 2*alpha)"`: a registered potential with parameters as
    /// expressions in `n`, `b` and the constants; `None` when the text is not of that form.
    fn registered_spec(&self, name: &str, text: &str, at: usize) -> Result<Option<PotDef>, String> {
        let t = text.trim();
        let Some(open) = t.find('(') else {
            return Ok(registry(t).map(|info| PotDef::Registered {
                symbol: name.to_string(),
                info,
                params: info
                    .params
                    .iter()
                    .filter_map(|p| {
                        p.default
                            .map(|d| (p.name.to_string(), ParamSource::Literal(d.into())))
                    })
                    .collect(),
            }));
        };
        let head = t[..open].trim();
        let Some(info) = registry(head) else {
            return Ok(None);
        };
        if !t.ends_with(')') {
            return Err(self.defer(at, 0, format!("[potentials] `{name}`: `{t}` is not closed")));
        }
        let inner = &t[open + 1..t.len() - 1];
        let mut params = Vec::new();
        let mut depth = 0i32;
        let mut start = 0;
        let mut parts = Vec::new();
        for (i, c) in inner.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !inner.trim().is_empty() {
            parts.push(&inner[start..]);
        }
        let scope = ConstOnly(&self.constants.names);
        for part in parts {
            let (k, v) = match part.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None if info.params.len() == 1 => (info.params[0].name, part.trim()),
                None => {
                    return Err(self.defer(
                        at,
                        0,
                        format!("[potentials] `{name}`: write the parameters as key = value"),
                    ));
                }
            };
            if !info.params.iter().any(|p| p.name == k) {
                let keys: Vec<&str> = info.params.iter().map(|p| p.name).collect();
                return Err(self.defer(
                    at,
                    0,
                    format!(
                        "[potentials] `{name}`: `{}` has no parameter `{k}`; accepted: {}",
                        info.name,
                        keys.join(", ")
                    ),
                ));
            }
            let src = if info
                .params
                .iter()
                .any(|p| p.name == k && p.default.is_some())
                && crate::spec::parse_ratio(v).is_err()
                && v.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
            {
                // A word parameter (e.g. boundary = under).
                ParamSource::Literal(v.to_string())
            } else {
                let offset = text.find(v).unwrap_or(0);
                match compile_in(
                    self.t,
                    &format!("[potentials] `{name}` parameter `{k}`"),
                    v,
                    at,
                    &scope,
                    false,
                ) {
                    Ok(e) => ParamSource::Expr(e),
                    Err(fe) => {
                        let _ = offset;
                        *self.deferred.borrow_mut() = Some(fe.clone());
                        return Err(fe.message);
                    }
                }
            };
            params.push((k.to_string(), src));
        }
        for p in info.params {
            if !params.iter().any(|(k, _)| k == p.name) {
                match p.default {
                    Some(d) => params.push((p.name.to_string(), ParamSource::Literal(d.into()))),
                    None => {
                        return Err(self.defer(
                            at,
                            0,
                            format!(
                                "[potentials] `{name}`: `{}` needs its parameter `{}`",
                                info.name, p.name
                            ),
                        ));
                    }
                }
            }
        }
        Ok(Some(PotDef::Registered {
            symbol: name.to_string(),
            info,
            params,
        }))
    }

    fn defer(&self, at: usize, offset: usize, message: String) -> String {
        let e = error_in_string(self.t, at, offset, message.clone());
        *self.deferred.borrow_mut() = Some(e);
        message
    }

    /// A potential defined by an expression (`at`: where the file writes it; `None` for the
    /// prelude).
    fn defined(&self, name: &str, text: &str, at: Option<usize>) -> Result<PotDef, String> {
        if self.compiling.borrow().iter().any(|c| c == name) {
            let chain = self.compiling.borrow().join(" → ");
            let msg =
                format!("the potential `{name}` is defined through itself ({chain} → {name})");
            return Err(match at {
                Some(a) => self.defer(a, 0, msg),
                None => msg,
            });
        }
        self.compiling.borrow_mut().push(name.to_string());
        let result = (|| {
            let ast = crate::lang::parse(text).map_err(|e| match at {
                Some(a) => self.defer(a, e.at, format!("[potentials] `{name}`: {}", e.message)),
                None => format!("`{name}` = `{text}`: {}", e.message),
            })?;
            crate::lang::compile_expr(&ast, self, false).map_err(|e| {
                if self.deferred.borrow().is_some() {
                    return e.message;
                }
                match at {
                    Some(a) => self.defer(a, e.at, format!("[potentials] `{name}`: {}", e.message)),
                    None => format!(
                        "`{name}` is defined as `{text}`, which fails: {}",
                        e.message
                    ),
                }
            })
        })();
        self.compiling.borrow_mut().pop();
        Ok(PotDef::Defined {
            name: name.to_string(),
            text: text.to_string(),
            expr: result?,
        })
    }
}

impl Scope for ClaimScope<'_> {
    fn resolve(&self, name: &str) -> Result<Option<Resolved>, String> {
        if let Some((_, q)) = SIMPLE.iter().find(|(s, _)| *s == name) {
            if *q == Quantity::C2 && !self.has_process {
                return Err(
                    "`C2` needs a process: list [setting] processes or [setting.vectors]".into(),
                );
            }
            return Ok(Some(Resolved::Slot(self.slot(*q))));
        }
        if let Some(j) = self.constants.index(name) {
            return Ok(Some(Resolved::Slot(self.slot(Quantity::Const(j)))));
        }
        if let Some(b) = mean_bias::lookup(name) {
            if !self.has_process {
                return Err(format!(
                    "`{name}` needs a process: list [setting] processes"
                ));
            }
            return Ok(Some(Resolved::Slot(self.slot(Quantity::Bias(b)))));
        }
        let (stat, base) = split_prefix(name)?;
        match self.potential(base)? {
            Some(i) => {
                if stat != Stat::Value && !self.has_process {
                    return Err(format!(
                        "`{name}` is an expectation over the next step: list [setting] processes or [setting.vectors]"
                    ));
                }
                Ok(Some(Resolved::Slot(self.slot(Quantity::Pot(i, stat)))))
            }
            None => Ok(None),
        }
    }

    fn known(&self) -> Vec<(String, Vec<String>)> {
        let mut potentials: Vec<String> = crate::potential::REGISTRY
            .iter()
            .map(|i| i.symbol.to_string())
            .collect();
        potentials.extend(self.t.file.potentials.keys().cloned());
        vec![
            (
                "quantities".into(),
                SIMPLE.iter().map(|(s, _)| s.to_string()).collect(),
            ),
            ("constants".into(), self.constants.names.clone()),
            (
                "potentials (also with E_, dE_, R_, E2_ ...)".into(),
                potentials,
            ),
            ("prelude".into(), prelude_names()),
            (
                "mean-bias".into(),
                mean_bias::NAMES
                    .iter()
                    .map(|(_, s)| s.to_string())
                    .collect(),
            ),
        ]
    }

    fn has_process(&self) -> bool {
        self.has_process
    }

    /// `P(...)`, `E(...)` and primed names need the law of the next state: a process or the
    /// vector quantifier.
    fn has_next(&self) -> bool {
        self.has_process
    }

    /// A primed name: every quantity of the state, but the ones that do not change from one
    /// state to the next (`n`, `b`, the constants).
    fn resolve_next(&self, name: &str) -> Result<Option<Resolved>, String> {
        if name == "n" || name == "b" || self.constants.index(name).is_some() {
            return Err(format!(
                "`{name}'`: `{name}` is the same at every state (a size or a constant); write `{name}`"
            ));
        }
        self.resolve(name)
    }
}
