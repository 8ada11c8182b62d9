// @generated automatically by Diesel CLI.

diesel::table! {
    match_events (match_id, ply) {
        match_id -> Uuid,
        ply -> Int8,
        seat -> Nullable<Int4>,
        payload -> Jsonb,
        idempotency_key -> Nullable<Text>,
        request_hash -> Nullable<Bytea>,
        response -> Nullable<Jsonb>,
        created_at -> Timestamptz,
        revises -> Nullable<Int8>,
        reported_by -> Nullable<Int4>,
        restores -> Nullable<Jsonb>,
    }
}

diesel::table! {
    match_snapshots (match_id, ply) {
        match_id -> Uuid,
        ply -> Int8,
        state -> Jsonb,
    }
}

diesel::table! {
    match_seats (match_id, seat) {
        match_id -> Uuid,
        seat -> Int4,
        player_name -> Text,
        token_hash -> Nullable<Bytea>,
        final_score -> Nullable<Int8>,
        final_rank -> Nullable<Int4>,
        winner -> Nullable<Bool>,
        highlights -> Nullable<Jsonb>,
        player_key -> Text,
        anonymous -> Bool,
    }
}

diesel::table! {
    matches (id) {
        id -> Uuid,
        game -> Text,
        rules_version -> Text,
        options -> Jsonb,
        randomness -> Text,
        seed -> Nullable<Text>,
        seed_sha256 -> Nullable<Text>,
        owner_token_hash -> Bytea,
        status -> Text,
        version -> Int8,
        state -> Jsonb,
        result -> Nullable<Jsonb>,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        finished_at -> Nullable<Timestamptz>,
        kind -> Text,
        lowest_wins -> Nullable<Bool>,
        chance_reporters -> Text,
        access_version -> Int8,
        rated_order -> Nullable<Int8>,
        household -> Uuid,
    }
}

diesel::table! {
    player_game_stats (game, player_key) {
        game -> Text,
        player_key -> Text,
        player_name -> Text,
        played -> Int8,
        won -> Int8,
        score_sum -> Int8,
        abandoned -> Int8,
        household -> Uuid,
    }
}

diesel::table! {
    match_abandons (match_id) {
        match_id -> Uuid,
        abandoned_by -> Text,
        abandoned_at -> Timestamptz,
        at_version -> Int8,
        after_play -> Bool,
    }
}

diesel::table! {
    sheet_entries (match_id, seq) {
        match_id -> Uuid,
        seq -> Int8,
        round -> Int4,
        tally -> Nullable<Jsonb>,
        corrects -> Nullable<Int8>,
        note -> Nullable<Text>,
        created_at -> Timestamptz,
        idempotency_key -> Nullable<Text>,
        request_hash -> Nullable<Bytea>,
        kind -> Text,
        renamed -> Nullable<Jsonb>,
        imported -> Nullable<Jsonb>,
    }
}

diesel::table! {
    households (id) {
        id -> Uuid,
        name -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    household_keys (key_hash) {
        key_hash -> Bytea,
        household -> Uuid,
        role -> Text,
    }
}

diesel::table! {
    idempotent_creates (key_hash) {
        key_hash -> Bytea,
        request_hash -> Bytea,
        match_id -> Uuid,
        sealed_response -> Bytea,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    match_invites (match_id, seat) {
        match_id -> Uuid,
        seat -> Int4,
        code_hash -> Bytea,
        created_at -> Timestamptz,
        redeemed_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    match_rematch_links (match_id) {
        match_id -> Uuid,
        rematch_of -> Nullable<Uuid>,
        rematch -> Nullable<Uuid>,
    }
}

diesel::table! {
    invite_codes (code_hash) {
        code_hash -> Bytea,
        match_id -> Uuid,
        seat -> Int4,
    }
}

diesel::joinable!(match_abandons -> matches (match_id));
diesel::joinable!(match_events -> matches (match_id));
diesel::joinable!(match_rematch_links -> matches (match_id));
diesel::joinable!(match_seats -> matches (match_id));
diesel::joinable!(match_snapshots -> matches (match_id));
diesel::joinable!(sheet_entries -> matches (match_id));

diesel::table! {
    match_hands (match_id, seat) {
        match_id -> Uuid,
        seat -> Int4,
        version -> Int8,
        cards -> Jsonb,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    household_keys,
    households,
    idempotent_creates,
    invite_codes,
    match_abandons,
    match_events,
    match_hands,
    match_invites,
    match_rematch_links,
    match_seats,
    match_snapshots,
    matches,
    player_game_stats,
    sheet_entries,
);
