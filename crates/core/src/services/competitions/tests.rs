use super::*;
use clubcomp_engine::PairingSystem;

fn comp(kind: CompetitionKind, system: Option<PairingSystem>, params: &str) -> Competition {
    let now = chrono::NaiveDate::from_ymd_opt(2026, 9, 4)
        .and_then(|d| d.and_hms_opt(20, 0, 0))
        .unwrap_or_default();
    Competition {
        id: CompetitionId(7),
        season_id: SeasonId(1),
        name: "c".into(),
        kind,
        discipline: Discipline::Chess,
        system,
        half: None,
        seeded_from: None,
        params: params.into(),
        tiebreaks: "[]".into(),
        time_control: serde_json::to_string(&TimeControl::club_default()).unwrap(),
        rules: "{}".into(),
        rounds_planned: None,
        version: 1,
        created_at: now,
        updated_at: now,
    }
}

fn internal(r: ApiResult<StoredParams>) -> String {
    match r {
        Err(ApiError::Internal(cause)) => cause,
        other => panic!("expected an internal error, got {other:?}"),
    }
}

#[test]
fn params_decode_by_kind() {
    use CompetitionKind as K;
    let k = stored_params(&comp(K::Keizer, None, r#"{"top_value": 50}"#)).unwrap();
    assert!(matches!(k.typed, CompetitionParams::Keizer(_)));
    assert_eq!(
        Value::Object(k.object),
        serde_json::json!({"top_value": 50})
    );
    let s = stored_params(&comp(K::Swiss, Some(PairingSystem::Dutch), "{}")).unwrap();
    assert!(matches!(
        s.typed,
        CompetitionParams::Swiss(SwissParams { blitz: None })
    ));
    let d = stored_params(&comp(K::Swiss, Some(PairingSystem::DoubleSwiss), "{}")).unwrap();
    assert!(matches!(
        d.typed,
        CompetitionParams::DoubleSwiss(SwissParams { blitz: None })
    ));
    let r = stored_params(&comp(
        K::RoundRobin,
        Some(PairingSystem::Single),
        r#"{"lots_seed": 12, "prize_money": [100], "excluded_from_points": [4, "x"],
            "rights": [{"kind": "qualification", "name": "final", "slots": 2,
                        "prequalified": [9]}]}"#,
    ))
    .unwrap();
    match r.typed {
        CompetitionParams::RoundRobin(p) => {
            assert_eq!(p.lots_seed, Some(12));
            assert_eq!(p.prize_money, vec![serde_json::Number::from(100)]);
            assert_eq!(p.lots_order, None);
            assert_eq!(p.excluded_from_points, ["4", "x"]);
            assert_eq!(
                p.rights,
                [clubcomp_engine::round_robin::Right::Qualification {
                    name: "final".into(),
                    slots: 2,
                    prequalified: vec!["9".into()],
                }]
            );
        }
        other => panic!("{other:?}"),
    }
    match stored_params(&comp(K::Knockout, None, "{}")).unwrap().typed {
        CompetitionParams::Knockout(KnockoutParams { playoff: None }) => {}
        other => panic!("{other:?}"),
    }
}

fn settings(kind: &str, system: Option<&str>, params: Value) -> ApiResult<Settings> {
    validate(&SettingsInput {
        kind: kind.into(),
        discipline: "chess".into(),
        system: system.map(String::from),
        params,
        tiebreaks: vec![],
        time_control: blitz_time_control(),
        rules: serde_json::json!({}),
    })
}

fn fields(r: ApiResult<Settings>) -> Vec<String> {
    match r {
        Err(ApiError::Validation { errors, .. }) => errors.into_iter().map(|e| e.field).collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

/// The blitz block is stored with its defaults (check-in closes at 20:00, ⌈log2 n⌉ + 2
/// rounds, at most 11, guests may take the title) and decoded into the typed parameters.
#[test]
fn a_blitz_block_is_stored_with_its_defaults() {
    let s = settings(
        "swiss",
        Some("dutch"),
        serde_json::json!({"blitz": {"date": "2027-06-18"}}),
    )
    .unwrap();
    assert_eq!(
        s.params,
        serde_json::json!({"blitz": {"date": "2027-06-18", "check_in_closes": "20:00",
            "extra_rounds": 2, "max_rounds": 11, "guest_title": "eligible"}})
    );
    let mut c = comp(
        CompetitionKind::Swiss,
        Some(PairingSystem::Dutch),
        &s.params.to_string(),
    );
    let typed = stored_params(&c).unwrap().typed;
    let CompetitionParams::Swiss(SwissParams { blitz: Some(b) }) = typed else {
        panic!("{typed:?}")
    };
    assert_eq!(
        b.date,
        chrono::NaiveDate::from_ymd_opt(2027, 6, 18).unwrap()
    );
    assert_eq!(
        b.check_in_closes,
        chrono::NaiveTime::from_hms_opt(20, 0, 0).unwrap()
    );
    assert_eq!(
        b.rounds_rule(),
        clubcomp_engine::blitz::RoundsRule::default()
    );
    c.params = r#"{"blitz": {"date": "18-06-2027"}}"#.into();
    assert!(matches!(stored_params(&c), Err(ApiError::Internal(_))));
}

#[test]
fn a_bad_blitz_block_names_each_field() {
    let bad = serde_json::json!({"blitz": {"date": "2027-02-30", "check_in_closes": "8 pm",
        "extra_rounds": 11, "max_rounds": 0, "tempo": 10}});
    let mut got = fields(settings("swiss", Some("dutch"), bad));
    got.sort();
    assert_eq!(
        got,
        [
            "params.blitz.check_in_closes",
            "params.blitz.date",
            "params.blitz.extra_rounds",
            "params.blitz.max_rounds",
            "params.blitz.tempo"
        ]
    );
    let no_date = serde_json::json!({"blitz": {"check_in_closes": "19:45"}});
    assert_eq!(
        fields(settings("swiss", Some("dutch"), no_date)),
        ["params.blitz.date"]
    );
    let ok = serde_json::json!({"blitz": {"date": "2027-06-18"}});
    assert_eq!(
        fields(settings("swiss", Some("double_swiss"), ok.clone())),
        ["params.blitz"]
    );
    assert_eq!(
        fields(settings("round_robin", Some("single"), ok)),
        ["params.blitz"]
    );
}

#[test]
fn malformed_params_are_an_internal_error_naming_the_competition() {
    use CompetitionKind as K;
    for (kind, text) in [
        (K::Keizer, r#"{"top_value": 50"#),
        (K::Keizer, "[1, 2]"),
        (K::Keizer, r#"{"top_value": "fifty"}"#),
        (K::Swiss, "null"),
        (K::RoundRobin, r#"{"lots_order": 1"#),
        (K::RoundRobin, r#"{"lots_order": 1}"#),
        (K::RoundRobin, r#"{"prize_money": ["100"]}"#),
        (K::RoundRobin, r#"{"lots_seed": -1}"#),
        (K::Knockout, r#"{"summer_competition": "x"}"#),
    ] {
        let cause = internal(stored_params(&comp(kind, None, text)));
        assert!(cause.starts_with("competition 7: stored params"), "{cause}");
    }
}

#[test]
fn malformed_settings_columns_are_an_internal_error() {
    let mut c = comp(CompetitionKind::Keizer, None, "{}");
    assert_eq!(stored_settings(&c).unwrap().kind, CompetitionKind::Keizer);
    c.tiebreaks = "[\"SB\"".into();
    assert!(matches!(stored_settings(&c), Err(ApiError::Internal(_))));
    c.tiebreaks = "[]".into();
    c.time_control = "{}".into();
    assert!(matches!(stored_settings(&c), Err(ApiError::Internal(_))));
}
