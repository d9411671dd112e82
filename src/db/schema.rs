//! The database schema, hand-written with portable SQL types only (DESIGN "Databases"):
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
