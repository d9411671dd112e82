//! The service's readers of a client's text never panic, and refuse with a client error
//! (4xx) — never an internal one: dates, times, cursors, event types, limits, query strings,
//! `If-Match` and `If-None-Match`, the Swiss tie-break acronyms, roles, the KNSB rating list,
//! the calculators' tie-break lists and TRF text, and the one-line rule itself. The engine's
//! file and move readers have their own (`crates/engine/src/parser_fuzz.rs`).

use crate::error::ApiError;
use actix_web::ResponseError;
use proptest::prelude::*;

/// A refusal is a client error.
fn client_error(e: &ApiError) -> bool {
    e.status_code().is_client_error()
}

/// Arbitrary text: any printable Unicode, or any character at all.
const TEXT: &str = "\\PC{0,40}|.{0,40}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn dates_times_cursors_and_limits_never_panic(text in TEXT) {
        use crate::services::{calendar, date, events};
        if date::read(&text).is_none() {
            prop_assert!(client_error(&date::parse("date", &text).unwrap_err()));
        }
        let _ = calendar::valid_time(&text);
        if let Err(e) = events::parse_cursor("after", &text) {
            prop_assert!(client_error(&e));
        }
        if let Err(e) = events::parse_kinds("types", &text) {
            prop_assert!(client_error(&e));
        }
        if let Err(e) = events::parse_limit(Some(&text)) {
            prop_assert!(client_error(&e));
        }
    }

    #[test]
    fn query_strings_never_panic(query in TEXT) {
        if let Err(e) = super::parse_query::<super::changes::ChangesQuery>(&query) {
            prop_assert!(client_error(&e));
        }
        if let Err(e) = super::parse_query::<super::calc::PairQuery>(&query) {
            prop_assert!(client_error(&e));
        }
        if let Some(e) = super::nul_in_uri(&query, &query) {
            prop_assert!(client_error(&e));
        }
    }

    #[test]
    fn headers_acronyms_and_roles_never_panic(text in TEXT) {
        if let Err(e) = crate::services::version::check_if_match(Some(&text), "\"competition-1-v2\"") {
            prop_assert!(client_error(&e));
        }
        let _ = crate::cached::not_modified(Some(&text), "\"x\"");
        let _ = clubcomp_core::vocab::CompetitionTiebreak::parse_swiss(&text);
        let _ = crate::services::credentials::parse_roles(&text);
        let _ = crate::text::one_line(&text);
        let _ = crate::text::multi_line(&text);
    }

    #[test]
    fn calculator_inputs_never_panic(items in proptest::collection::vec(TEXT, 0..4), text in TEXT) {
        if let Err(e) = crate::calc_input::tiebreak_list(&items) {
            prop_assert!(client_error(&e));
        }
        if let Err(e) = crate::calc_input::trf_chars("trf", &text) {
            prop_assert!(client_error(&e));
        }
    }

    #[test]
    fn rating_list_rows_of_any_text_never_panic(rows in proptest::collection::vec(TEXT, 0..6)) {
        let mut file = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n".to_string();
        for r in &rows {
            file.push_str(r);
            file.push_str("\r\n");
        }
        if let Err(e) = crate::services::ratings::parse_knsb_csv(file.as_bytes()) {
            prop_assert!(client_error(&e));
        }
    }
}

#[test]
fn a_rating_list_row_with_a_bidi_override_in_the_name_is_refused_naming_the_line() {
    let file = "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\r\n\
                8400001;Jan\u{202E}seirV;;NED;1777;20;1990;M\r\n";
    let e = crate::services::ratings::parse_knsb_csv(file.as_bytes()).unwrap_err();
    let ApiError::Validation { errors, .. } = e else {
        panic!("{e:?}")
    };
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].field, "line 2");
    assert!(
        errors[0].message.contains("U+202E"),
        "{}",
        errors[0].message
    );
}
