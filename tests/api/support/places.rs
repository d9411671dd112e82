//! Where a player's place is read besides the standings: the season page's first three of a
//! competition and the players' cards; and a prize list's awards.

use super::app::TestApp;
use super::paths;
use actix_web::http::StatusCode;

/// The season page's first three of a competition (its names in the archive table's row).
pub async fn season_podium(app: &TestApp, comp: i64) -> Vec<String> {
    let r = app.get(&paths::competition(comp), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let season = r.body["season_id"].as_i64().unwrap();
    let page = app.get(&paths::club::season(season), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let rows = super::club_pages::table_rows(&page.text, "archive");
    assert_eq!(rows.len(), 1, "{}", page.text);
    rows[0][2..].to_vec()
}

/// Asserts each player's card gives them `place` (`"1"`, `"2-3"`, …) in competition `comp`.
pub async fn assert_card_places(app: &TestApp, comp: i64, places: &[(i64, &str)]) {
    for &(player, place) in places {
        let card = app.get(&paths::player_card(player), None).await;
        assert_eq!(card.status, StatusCode::OK, "{}", card.text);
        let entry = card.body["competitions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["competition_id"] == comp)
            .unwrap_or_else(|| panic!("no competition {comp} on the card of {player}"))
            .clone();
        assert_eq!(entry["place"], place, "player {player}: {}", card.text);
    }
}

/// A prize list's awards (the calculator's or the competition's) as `(prize, id)` pairs, in
/// the list's order.
pub fn award_pairs(list: &serde_json::Value) -> Vec<(String, String)> {
    list["awards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["prize"].as_str().unwrap().into(),
                a["id"].as_str().unwrap().into(),
            )
        })
        .collect()
}
