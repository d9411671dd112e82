//! The FIDE endorsement kit on the command line (docs/rules/rapid-blitz.md#checking-a-tournament):
//! `clubcomp pair --dutch FILE -c` checks a complete tournament round by round, and
//! `clubcomp pair --dutch -g [CONFIG] -o FILE [-s SEED]` generates a random one; with
//! `--burstein` instead of `--dutch` both use the Burstein system.
//! Exit codes of the checker: 0 every round is what the rules give, 1 a round differs (or
//! has no valid pairing), 2 the file is refused (not readable, not a TRF file, not complete).
//! Of the generator: 0 written, 1 a round had no valid pairing, 3 invalid configuration, 5 a
//! file not readable or writable.

use super::{Args, checked_trf};
use clubcomp_engine::swiss::{
    Criteria, PairFn, SwissBoard, Verdict, check_tournament_under, generate_tournament,
    parse_config, write_trf,
};
use std::path::Path;
use std::process::ExitCode;

fn boards(list: &[SwissBoard]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter()
        .map(|b| match b.black {
            Some(black) => format!("{}-{black}", b.white),
            None => format!("{} bye", b.white),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `-c`: the verdict on standard output, the refusal on standard error; breaches are named
/// by the criteria of the system (`burstein`: C.04.4.2's, otherwise the Dutch ones).
pub fn check(input: &Path, system: &PairFn, burstein: bool) -> ExitCode {
    let criteria = if burstein {
        Criteria::Burstein
    } else {
        Criteria::Dutch
    };
    let bytes = match std::fs::read(input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("cannot read {}: {e}", input.display());
            return ExitCode::from(2);
        }
    };
    let t = match checked_trf(&bytes) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", input.display());
            return ExitCode::from(2);
        }
    };
    match check_tournament_under(&t, system, criteria) {
        Err(e) => {
            eprintln!("{}: not a complete tournament: {e}", input.display());
            ExitCode::from(2)
        }
        Ok(Verdict::Agrees { rounds }) => {
            println!("all {rounds} rounds are paired as the rules give them");
            ExitCode::SUCCESS
        }
        Ok(Verdict::Unpairable { round, error }) => {
            println!("round {round}: the rules give no pairing: {error}");
            ExitCode::from(1)
        }
        Ok(Verdict::Differs(d)) => {
            println!(
                "round {}: the played pairing differs from the rules",
                d.round
            );
            println!("  played:             {}", boards(&d.played));
            println!("  by the rules:       {}", boards(&d.expected));
            println!("  only played:        {}", boards(&d.only_played));
            println!("  only by the rules:  {}", boards(&d.only_expected));
            if d.breaches.is_empty() {
                println!("  the played pairing breaks no absolute criterion");
            }
            for b in &d.breaches {
                println!("  the played pairing breaks {}", b.describe(d.rules));
            }
            ExitCode::from(1)
        }
    }
}

/// `-g`: writes the generated tournament to `-o`.
pub fn generate(args: &Args) -> ExitCode {
    let text = match args.generate.clone().flatten() {
        Some(path) => match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("cannot read {}: {e}", path.display());
                return ExitCode::from(5);
            }
        },
        None => String::new(),
    };
    let config = match parse_config(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration: {e}");
            return ExitCode::from(3);
        }
    };
    let seed = args.seed_g.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    let t = match generate_tournament(&config, seed, args.system().0) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("seed {seed}: {e}");
            return ExitCode::from(1);
        }
    };
    let Some(out) = &args.output else {
        eprintln!("-o FILE is required with -g");
        return ExitCode::from(3);
    };
    if let Err(e) = std::fs::write(out, write_trf(&t)) {
        eprintln!("cannot write {}: {e}", out.display());
        return ExitCode::from(5);
    }
    ExitCode::SUCCESS
}
