//! `clubcomp calc tiebreaks --trf FILE --tiebreaks PTS,DE,BH-M1,SB`: FIDE tie-breaks (C.07)
//! of a TRF file, printed as JSON standings with every value.

use clubcomp_engine::swiss::parse_trf;
use clubcomp_engine::tiebreaks::{Input, RulesEdition, Tiebreak, compute_tiebreaks};
use clubcomp_engine::tiebreaks::{edition_for, input_from_trf, standard_scoring};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The TRF file (`-` for standard input).
    #[arg(long, required_unless_present = "json", conflicts_with = "json")]
    pub trf: Option<PathBuf>,
    /// Instead of a TRF file: the engine's JSON input (`players`, `rules`, `games_per_round`,
    /// `event`), as the service sends it (`-` for standard input).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Comma-separated tie-break list, e.g. `PTS,DE,BH-M1,SB` (PTS is put first if missing).
    #[arg(long, default_value = "PTS,DE,BH-M1,SB")]
    pub tiebreaks: String,
    /// Edition of the FIDE tie-break regulations: 2024 (default), 2026, or `auto` (TRF: 2026
    /// for events starting on or after 2026-03-01 by the `042` date, else 2024; JSON: the
    /// input's own `rules`).
    #[arg(long, default_value = "2024")]
    pub rules: String,
    /// `swiss` or `round-robin`; detected from the TRF when omitted.
    #[arg(long)]
    pub event: Option<String>,
    /// Games per round (2 for a Double-Swiss); read from the TRF when omitted.
    #[arg(long)]
    pub games_per_round: Option<u8>,
    /// The rating an unrated player counts with in the rating-based tie-breaks (ARO, TPR,
    /// PTP, APRO, APPO), as the tournament regulations fix it; without it those tie-breaks
    /// have no value (`null`) when a player is unrated.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=4000))]
    pub unrated_rating: Option<u32>,
}

/// Runs the command: exit 0 with JSON on stdout, 2 on bad input (message on stderr).
pub fn run(args: Args) -> ExitCode {
    match run_inner(&args) {
        Ok(json) => {
            use std::io::Write;
            // A closed pipe (e.g. `| head`) is not an error worth a panic.
            let _ = writeln!(std::io::stdout(), "{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(args: &Args) -> Result<String, String> {
    let path = args.trf.as_ref().or(args.json.as_ref());
    let shown = path.map_or("-".to_string(), |p| p.display().to_string());
    let text = super::read_input(path.map(|p| p.as_path()))
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let (mut input, trf_edition) = if args.trf.is_some() {
        let limits = super::limits()?;
        crate::calc_input::trf_chars("trf", &text).map_err(|e| format!("{shown}: {e}"))?;
        crate::calc_input::trf_size("trf", &text, &limits).map_err(|e| format!("{shown}: {e}"))?;
        let trf = parse_trf(&text).map_err(|e| format!("{shown}: {e}"))?;
        standard_scoring(&trf).map_err(|e| format!("{shown}: {e}"))?;
        (input_from_trf(&trf), edition_for(&trf))
    } else {
        let input: Input = serde_json::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
        let edition = input.rules;
        (input, edition)
    };
    input.rules = match args.rules.trim() {
        "auto" => trf_edition,
        other => other
            .parse::<RulesEdition>()
            .map_err(|_| format!("--rules must be 2024, 2026 or auto, not {other:?}"))?,
    };
    if let Some(event) = args.event.as_deref().map(str::trim) {
        input.event = event
            .parse()
            .map_err(|why| format!("--event {why}, not {event:?}"))?;
    }
    if let Some(g) = args.games_per_round {
        input.games_per_round = g;
    }
    if args.unrated_rating.is_some() {
        input.unrated_rating = args.unrated_rating;
    }
    let items: Vec<String> = args
        .tiebreaks
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string)
        .collect();
    let list = if items.is_empty() {
        vec![Tiebreak::Pts]
    } else {
        crate::calc_input::tiebreak_list(&items).map_err(|e| e.to_string())?
    };
    let standings = compute_tiebreaks(&input, &list).map_err(|e| e.to_string())?;
    serde_json::to_string_pretty(&standings).map_err(|e| e.to_string())
}
