//! Could this Lucky Luau state have arisen from play? See [`crate::games::kit::consistency`].

use super::*;
use crate::games::kit::consistency::{self, bad};

impl crate::games::Table for State {
    fn players(&self) -> usize {
        self.players
    }

    fn check(&self) -> Result<(), Inconsistency> {
        let lists = [(self.seats.len(), "seats")];
        consistency::table::<LuckyLuau>(self.players, &self.options, "bad_seat_count", &lists)?;
        consistency::turn_seat(self.turn, self.players)?;
        check_conservation(self)?;
        for (seat, player) in self.seats.iter().enumerate() {
            check_tools(seat, player)?;
            check_report(self, seat, player)?;
        }
        check_phase(self)
    }
}

fn check_conservation(state: &State) -> Result<(), Inconsistency> {
    let mut all = state.face_down;
    all.add_all(&state.face_up);
    for player in &state.seats {
        all.add_all(&Counts::of(
            player
                .lei
                .iter()
                .chain(player.cut.iter())
                .filter_map(|s| s.card()),
        ));
    }
    if let Some(p) = state.pending {
        all.add(p.card, 1);
    }
    if all != Counts::full_pile() {
        return bad(
            "cards_not_conserved",
            format!("the centre, leis, cuts and drawn card hold {all:?}, not the 46-card pile"),
        );
    }
    Ok(())
}

fn check_tools(seat: Seat, player: &Player) -> Result<(), Inconsistency> {
    let on_lei = |slot: Slot| player.lei.iter().filter(|&&s| s == slot).count();
    let cut = |slot: Slot| usize::from(player.cut == Some(slot));
    if player.knife_used != player.cut.is_some() {
        return bad(
            "tools_not_conserved",
            format!("seat {seat}: a used Knife and a cut slot go together"),
        );
    }
    // A placed hook is on the lei or cut; a placed spacer is on the lei, cut, or filled.
    let hooks = on_lei(Slot::Hook) + cut(Slot::Hook);
    if hooks != usize::from(player.hook_used) {
        return bad(
            "tools_not_conserved",
            format!(
                "seat {seat}: {hooks} Fish Hooks placed, used = {}",
                player.hook_used
            ),
        );
    }
    let spacers = on_lei(Slot::Spacer) + cut(Slot::Spacer);
    if spacers > usize::from(player.spacer_used) {
        return bad(
            "tools_not_conserved",
            format!(
                "seat {seat}: {spacers} Spacers placed, used = {}",
                player.spacer_used
            ),
        );
    }
    Ok(())
}

fn check_report(state: &State, seat: Seat, player: &Player) -> Result<(), Inconsistency> {
    if !player.finished {
        if !player.guests.is_empty() || !player.rainbows.is_empty() {
            return bad(
                "phase_contradiction",
                format!("seat {seat} reported Guests or Rainbows before finishing"),
            );
        }
        return Ok(());
    }
    if state.phase == Phase::Play {
        return bad(
            "phase_contradiction",
            format!("seat {seat} finished while cards remain to be drawn"),
        );
    }
    if let Err(e) = scoring::check_guests(&player.guests) {
        return bad("bad_report", format!("seat {seat}: {e}"));
    }
    if !player.rainbows.is_empty() {
        let rainbows = player.lei.iter().filter(|&&s| s == Slot::Rainbow).count();
        let declared = rules::declared_of(player);
        if player.rainbows.len() != rainbows
            || scoring::score_lei(&state.options, &player.lei, &declared).is_err()
        {
            return bad(
                "bad_report",
                format!("seat {seat}: declared Rainbow colours do not fit the lei"),
            );
        }
    }
    Ok(())
}

fn check_phase(state: &State) -> Result<(), Inconsistency> {
    let centre = state.face_down.total() + state.face_up.total();
    let phase_bad = |detail: String| bad("phase_contradiction", detail);
    match state.phase {
        Phase::Play => {
            if centre == 0 && state.pending.is_none() {
                return phase_bad("the centre is empty but play goes on".into());
            }
            if state.pending.is_some() && state.chance.is_some() {
                return phase_bad("a drawn card is pending while another is being drawn".into());
            }
        }
        Phase::End | Phase::Over => {
            if centre != 0 || state.pending.is_some() {
                return phase_bad(format!(
                    "{centre} cards in the centre in phase {:?}",
                    state.phase
                ));
            }
            let finished = state.seats.iter().filter(|p| p.finished).count();
            if (state.phase == Phase::Over) != (finished == state.players) {
                return phase_bad(format!(
                    "{finished} of {} seats finished in phase {:?}",
                    state.players, state.phase
                ));
            }
        }
    }
    match &state.chance {
        None => Ok(()),
        Some(PendingChance::Draw { seat, pile }) => {
            if state.phase != Phase::Play
                || *seat != state.turn
                || *pile != state.face_down
                || pile.is_empty()
            {
                consistency::chance_contradicts("draw", &state.chance)
            } else {
                Ok(())
            }
        }
    }
}
