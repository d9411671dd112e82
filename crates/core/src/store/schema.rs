//! The database schema, hand-written with portable SQL types only (docs/architecture.md, "Storage"):
//! ids are `BigInt`, enums and lists travel as `Text`, timestamps are UTC `Timestamp`.

diesel::table! {
    users (id) {
        id -> BigInt,
        email -> Text,
        password_hash -> Text,
        roles -> Text,
        active -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        player_id -> Nullable<BigInt>,
        token_generation -> BigInt,
        email_verified_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    service_tokens (id) {
        id -> BigInt,
        name -> Text,
        roles -> Text,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    players (id) {
        id -> BigInt,
        name -> Text,
        knsb_number -> Nullable<Text>,
        fide_id -> Nullable<Text>,
        membership -> Text,
        active -> Bool,
        email -> Nullable<Text>,
        phone -> Nullable<Text>,
        version -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        publication -> Text,
    }
}

diesel::table! {
    ratings (id) {
        id -> BigInt,
        player_id -> BigInt,
        source -> Text,
        value -> Integer,
        list_date -> Date,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(ratings -> players (player_id));
diesel::joinable!(service_tokens -> users (created_by));
diesel::allow_tables_to_appear_in_same_query!(users, service_tokens, players, ratings);

diesel::table! {
    seasons (id) {
        id -> BigInt,
        name -> Text,
        opening_date -> Date,
        created_at -> Timestamp,
    }
}

diesel::table! {
    evenings (id) {
        id -> BigInt,
        season_id -> BigInt,
        date -> Date,
        start_time -> Text,
        kind -> Text,
        half -> Nullable<Text>,
        number -> Nullable<Integer>,
        note -> Nullable<Text>,
        version -> BigInt,
    }
}

diesel::table! {
    competitions (id) {
        id -> BigInt,
        season_id -> BigInt,
        name -> Text,
        kind -> Text,
        discipline -> Text,
        system -> Nullable<Text>,
        half -> Nullable<Text>,
        seeded_from -> Nullable<BigInt>,
        params -> Text,
        tiebreaks -> Text,
        time_control -> Text,
        rules -> Text,
        rounds_planned -> Nullable<Integer>,
        version -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    entrants (id) {
        id -> BigInt,
        competition_id -> BigInt,
        player_id -> BigInt,
        seed -> Integer,
        rating -> Nullable<Integer>,
        joins_at -> Integer,
        excused_before -> Integer,
        created_at -> Timestamp,
        withdrawn_from -> Nullable<Integer>,
    }
}

diesel::table! {
    rounds (id) {
        id -> BigInt,
        competition_id -> BigInt,
        number -> Integer,
        evening_id -> Nullable<BigInt>,
        date -> Nullable<Date>,
        status -> Text,
        pairing_meta -> Nullable<Text>,
        version -> BigInt,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        round_id -> BigInt,
        board -> Integer,
        game_no -> Integer,
        white_id -> Nullable<BigInt>,
        black_id -> Nullable<BigInt>,
        result -> Nullable<Text>,
        termination -> Nullable<Text>,
        move_count -> Nullable<Integer>,
        version -> BigInt,
        updated_at -> Timestamp,
        time_control -> Nullable<Text>,
    }
}

diesel::table! {
    attendance (id) {
        id -> BigInt,
        round_id -> BigInt,
        player_id -> BigInt,
        action -> Text,
        channel -> Text,
        recorded_by -> Text,
        at -> Timestamp,
        note -> Nullable<Text>,
    }
}

diesel::table! {
    audit_log (id) {
        id -> BigInt,
        entity -> Text,
        entity_id -> BigInt,
        action -> Text,
        actor -> Text,
        at -> Timestamp,
        old_value -> Nullable<Text>,
        new_value -> Nullable<Text>,
        reason -> Nullable<Text>,
    }
}

diesel::table! {
    cache_stamps (scope) {
        scope -> Text,
        stamp -> BigInt,
    }
}

diesel::table! {
    known_logins (key) {
        key -> Text,
        account -> Text,
        last_seen -> Timestamp,
        expires -> Timestamp,
    }
}

diesel::table! {
    login_attempts (key) {
        key -> Text,
        attempts -> Integer,
        since -> Timestamp,
        strikes -> Integer,
        expires -> Timestamp,
    }
}

diesel::joinable!(evenings -> seasons (season_id));
diesel::joinable!(competitions -> seasons (season_id));
diesel::joinable!(entrants -> competitions (competition_id));
diesel::joinable!(entrants -> players (player_id));
diesel::joinable!(rounds -> competitions (competition_id));
diesel::joinable!(rounds -> evenings (evening_id));
diesel::joinable!(games -> rounds (round_id));
diesel::joinable!(attendance -> rounds (round_id));
diesel::joinable!(attendance -> players (player_id));
diesel::allow_tables_to_appear_in_same_query!(
    seasons,
    evenings,
    competitions,
    entrants,
    rounds,
    games,
    attendance,
    audit_log,
    cache_stamps,
    login_attempts,
    players
);

diesel::table! {
    prize_lists (id) {
        id -> BigInt,
        competition_id -> BigInt,
        body -> Text,
        finalized_by -> Text,
        finalized_at -> Timestamp,
    }
}

diesel::table! {
    attendance_deadlines (competition_id) {
        competition_id -> BigInt,
        days_before -> Integer,
        deadline_time -> Text,
    }
}

diesel::table! {
    evening_check_ins (evening_id) {
        evening_id -> BigInt,
        opened_by -> Text,
        opened_at -> Timestamp,
        closed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    check_in_closures (competition_id) {
        competition_id -> BigInt,
        participants -> Integer,
        rounds -> Integer,
        closed_by -> Text,
        closed_at -> Timestamp,
    }
}

diesel::table! {
    game_events (id) {
        id -> BigInt,
        game_id -> BigInt,
        seq -> Integer,
        event -> Text,
        note -> Nullable<Text>,
        actor -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    game_moves (game_id) {
        game_id -> BigInt,
        format -> Text,
        movetext -> Text,
        start_fen -> Nullable<Text>,
        plies -> Integer,
        version -> BigInt,
        updated_by -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    claims (id) {
        id -> BigInt,
        game_id -> BigInt,
        event_seq -> Integer,
        kind -> Text,
        claimant -> Text,
        status -> Text,
        valid -> Nullable<Bool>,
        check_result -> Nullable<Text>,
        outcome -> Nullable<Text>,
        opponent_extra_seconds -> Integer,
        created_by -> Text,
        created_at -> Timestamp,
        decided_by -> Nullable<Text>,
        decided_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    appeals (id) {
        id -> BigInt,
        game_id -> BigInt,
        claim_id -> Nullable<BigInt>,
        event_id -> Nullable<BigInt>,
        decided_at -> Timestamp,
        grounds -> Text,
        lodged_by -> Text,
        lodged_at -> Timestamp,
        last_day -> Date,
        ruling -> Nullable<Text>,
        ruling_reason -> Nullable<Text>,
        ruled_by -> Nullable<Text>,
        ruled_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(game_moves -> games (game_id));
diesel::joinable!(claims -> games (game_id));
diesel::table! {
    protests (id) {
        id -> BigInt,
        game_id -> BigInt,
        claim_id -> Nullable<BigInt>,
        event_id -> Nullable<BigInt>,
        decided_at -> Timestamp,
        grounds -> Text,
        in_writing -> Bool,
        deposit_paid -> Bool,
        lodged_by -> Text,
        lodged_at -> Timestamp,
        last_day -> Nullable<Date>,
        ruling -> Nullable<Text>,
        ruling_reason -> Nullable<Text>,
        result -> Nullable<Text>,
        ruled_by -> Nullable<Text>,
        ruled_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(protests -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(
    game_events,
    game_moves,
    claims,
    appeals,
    protests,
    games
);

diesel::table! {
    refresh_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        family -> Text,
        token_hash -> Text,
        generation -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        spent_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
        successor_seed -> Nullable<Text>,
    }
}

diesel::joinable!(refresh_tokens -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(refresh_tokens, users);

diesel::table! {
    events (id) {
        id -> BigInt,
        kind -> Text,
        occurred_at -> Timestamp,
        competition_id -> Nullable<BigInt>,
        evening_id -> Nullable<BigInt>,
        game_id -> Nullable<BigInt>,
        payload -> Text,
        visibility -> Text,
    }
}

diesel::table! {
    webhooks (id) {
        id -> BigInt,
        url -> Text,
        description -> Text,
        event_types -> Text,
        secret -> Text,
        enabled -> Bool,
        last_event_id -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> BigInt,
        webhook_id -> BigInt,
        event_id -> BigInt,
        event_type -> Text,
        body -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        last_attempt_at -> Nullable<Timestamp>,
        last_status_code -> Nullable<Integer>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::allow_tables_to_appear_in_same_query!(webhook_deliveries, webhooks);

diesel::table! {
    mail_outbox (id) {
        id -> BigInt,
        message_id -> Text,
        kind -> Text,
        recipient -> Text,
        recipient_name -> Text,
        subject -> Text,
        body_text -> Text,
        body_html -> Text,
        unsubscribe_url -> Nullable<Text>,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        last_attempt_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    account_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        purpose -> Text,
        token_hash -> Text,
        new_email -> Nullable<Text>,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(account_tokens -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(account_tokens, users);

diesel::table! {
    member_preferences (player_id) {
        player_id -> BigInt,
        language -> Nullable<Text>,
        pairing -> Nullable<Bool>,
        reminder -> Nullable<Bool>,
        result -> Nullable<Bool>,
        decision -> Nullable<Bool>,
        prizes -> Nullable<Bool>,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(member_preferences -> players (player_id));
diesel::allow_tables_to_appear_in_same_query!(member_preferences, players);
diesel::allow_tables_to_appear_in_same_query!(member_preferences, users);

diesel::table! {
    game_reports (game_id, player_id) {
        game_id -> BigInt,
        player_id -> BigInt,
        account -> Text,
        result -> Text,
        reported_at -> Timestamp,
    }
}

diesel::joinable!(game_reports -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(game_reports, games);
