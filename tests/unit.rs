//! The library's unit tests (`balloc::unit`): one test of the suite per module of the library
//! that has unit tests, running each of them (a failure names the failing functions).

macro_rules! unit {
    ($($name:ident => $path:literal,)*) => {
        $(
            #[test]
            fn $name() {
                balloc::unit::run($path);
            }
        )*

        /// Every module of `balloc::unit::MODULES` has its test here, and no other.
        #[test]
        fn every_module_with_unit_tests_runs() {
            let here: Vec<&str> = vec![$($path),*];
            let there: Vec<&str> = balloc::unit::MODULES.iter().map(|(m, _)| *m).collect();
            assert_eq!(here, there);
            let count: usize = balloc::unit::MODULES.iter().map(|(_, t)| t.len()).sum();
            assert!(count >= 144, "{count} unit tests");
        }
    };
}

unit! {
    bias_outcome => "bias::outcome",
    blueprint_layout => "blueprint::layout",
    claim_kind_inequality_run => "claim::kind::inequality::run",
    claim_kind_multidim_expr => "claim::kind::multidim_expr",
    claim_kind_two_point => "claim::kind::two_point",
    claim_mean_bias => "claim::mean_bias",
    claim_tighten => "claim::tighten",
    claim_trust => "claim::trust",
    cli_check => "cli::check",
    cli_search => "cli::search",
    enclosure_interval_exp_memo => "enclosure::interval::exp_memo",
    enclosure_interval => "enclosure::interval",
    enclosure_interval64 => "enclosure::interval64",
    error => "error",
    exact_int => "exact::int",
    exact => "exact",
    exact_sum => "exact::sum",
    graph_binarise => "graph::binarise",
    graph_binomial => "graph::binomial",
    graph_quantities => "graph::quantities",
    graph_sparse_cut => "graph::sparse_cut",
    graph_strategy => "graph::strategy",
    graph_tree_file => "graph::tree_file",
    lang_domain => "lang::domain",
    lang_dual => "lang::dual",
    lang_expr => "lang::expr",
    lang_expr_postfix => "lang::expr::postfix",
    lang_expsum => "lang::expsum",
    lang_float64 => "lang::float64",
    lang_jet => "lang::jet",
    lang_syntax => "lang::syntax",
    limits => "limits",
    multidim_potential => "multidim::potential",
    plot => "plot",
    potential_exponential => "potential::exponential",
    potential_shift_form => "potential::shift_form",
    prover_certificate => "prover::certificate",
    prover_lemma => "prover::lemma",
    prover_ratfun => "prover::ratfun",
    prover_rewrite => "prover::rewrite",
    sim_graph => "sim::graph",
    sim_multinomial => "sim::multinomial",
    strategy => "strategy",
    xfloat => "xfloat",
}
