// Simple strategies per game that beat random play, reading the observation, the legal moves
// and the game's data (gamedata.go). Each returns an index into the legal moves.
package main

import (
	"math"

	pb "premiere/v1"
)

// bestIndex is the index of the highest score among the moves for which score says ok.
func bestIndex(n int, score func(i int) (float64, bool)) int {
	chosen, top := -1, math.Inf(-1)
	for i := 0; i < n; i++ {
		if value, ok := score(i); ok && value > top {
			chosen, top = i, value
		}
	}
	return chosen
}

// Magic Trick: a fan is in rank order (slot 0 high) with one's own ranks hidden, so a slot's
// place estimates its rank. Sleeve the card whose estimate is the tricks one expects, then take
// tricks with high cards (trump first) while short of that bid and shed low ones once there.
func magicTrick(o *pb.MagicTrickObservation, moves []*pb.MagicTrickMove, seat int) int {
	if len(o.Fans) <= seat {
		return 0
	}
	fan := o.Fans[seat].Slots
	n := float64(len(fan))
	estimate := func(slot int32) float64 { return 7 * (n - 1 - float64(slot)) / math.Max(1, n-1) }
	inHand, sleeved := 0, -1
	for i, slot := range fan {
		if slot.Place == "hand" {
			inHand++
		} else if slot.Place == "sleeve" {
			sleeved = i
		}
	}
	taken := float64(o.TricksTaken[seat])
	want := taken + float64(inHand)/float64(o.Players)*0.8
	if i := bestIndex(len(moves), func(i int) (float64, bool) {
		s := moves[i].GetSleeve()
		if s == nil {
			return 0, false
		}
		return -math.Abs(estimate(s.Slot) - want), true
	}); i >= 0 {
		return i
	}
	bid := n / float64(o.Players)
	if sleeved >= 0 {
		bid = estimate(int32(sleeved))
	}
	short := bid-taken >= 0.5
	if i := bestIndex(len(moves), func(i int) (float64, bool) {
		p := moves[i].GetPlay()
		if p == nil {
			return 0, false
		}
		red := 0.0
		if fan[p.Slot].Suit == "red" {
			red = 1
		}
		if short {
			return red*100 - float64(p.Slot), true
		}
		return -red*100 + float64(p.Slot), true
	}); i >= 0 {
		return i
	}
	return 0
}

// Movie Tricks: play the highest card (no boost), draft the card with the most symbols for the
// emptiest column, claim the biggest goal, put bonus cards in the tableau.
func movieTricks(o *pb.MovieTricksObservation, moves []*pb.MovieTricksMove, seat int, data *GameData) int {
	cards := map[int32]*pb.MovieTricksCard{}
	for _, group := range [][]*pb.MovieTricksCard{o.Hand, o.Market, o.Display} {
		for _, c := range group {
			cards[c.Id] = c
		}
	}
	card := func(id int32) *pb.MovieTricksCard {
		if c, ok := cards[id]; ok {
			return c
		}
		if c := data.TricksCard(id); c != nil {
			return c
		}
		return &pb.MovieTricksCard{}
	}
	unboosted := false
	for _, m := range moves {
		if p := m.GetPlay(); p != nil && !p.Boost {
			unboosted = true
		}
	}
	if i := bestIndex(len(moves), func(i int) (float64, bool) {
		p := moves[i].GetPlay()
		if p == nil {
			return 0, false
		}
		if unboosted && p.Boost {
			return -1000, true
		}
		return float64(card(p.Card).Value), true
	}); i >= 0 {
		return i
	}
	categories := data.Raw.GetMovieTricks().GetCategories()
	if i := bestIndex(len(moves), func(i int) (float64, bool) {
		d := moves[i].GetDraft()
		if d == nil {
			return 0, false
		}
		c := card(d.Card)
		have := 0
		if seat < len(o.Tableaus) {
			for col, name := range categories {
				if name == c.GetCategory() && col < len(o.Tableaus[seat].Columns) {
					have = len(o.Tableaus[seat].Columns[col].Cards)
				}
			}
		}
		return float64(2*len(c.Symbols)-have) + float64(c.Value)/10, true
	}); i >= 0 {
		return i
	}
	if i := bestIndex(len(moves), func(i int) (float64, bool) {
		c := moves[i].GetClaim()
		if c == nil {
			return 0, false
		}
		return float64(c.Need), true
	}); i >= 0 {
		return i
	}
	for i, m := range moves {
		if m.GetBonusTableau() != nil {
			return i
		}
	}
	return 0
}

// wanted is the set of genres a Movie Fight viewer's requirement asks for.
func wanted(card *pb.MovieFightCardData) map[string]bool {
	genres := map[string]bool{}
	r := card.GetRequirement()
	for _, g := range r.GetGenres() {
		genres[g] = true
	}
	for _, p := range r.GetPattern() {
		if p != "" && p != "|" && p != "?" {
			genres[p] = true
		}
	}
	if r.GetGenre() != "" {
		genres[r.GetGenre()] = true
	}
	return genres
}

// Movie Fight: viewers score by the movies on their floor, so keep each floor's viewers and
// screens matched: a viewer where the screens show what it wants, a screen where the viewers
// want its genres, each where its own kind is short.
func movieFight(o *pb.MovieFightObservation, moves []*pb.MovieFightMove, seat int, data *GameData) int {
	cinema := o.Cinemas[seat]
	wild := data.Raw.GetMovieFight().GetWild()
	if i := bestIndex(len(moves), func(i int) (float64, bool) {
		p := moves[i].GetPlay()
		if p == nil || int(p.Floor) < 1 || int(p.Floor) > len(cinema.Floors) {
			return 0, false
		}
		floor := cinema.Floors[p.Floor-1]
		c := data.FightCard(p.Card)
		if c == nil {
			return 0, true
		}
		balance := float64(len(floor.Screens) - len(floor.Audience))
		match := 0
		if p.Side == "audience" {
			wants := wanted(c)
			for _, s := range floor.Screens {
				for _, g := range data.FightCard(s).GetGenres() {
					if wants[g] || g == wild {
						match++
					}
				}
			}
			best := 0.0
			if tiers := c.GetRequirement().GetTiers(); len(tiers) > 0 {
				best = float64(tiers[len(tiers)-1].Points) / 10
			}
			return float64(2*match) + balance + best, true
		}
		for _, v := range floor.Audience {
			wants := wanted(data.FightCard(v))
			for _, g := range c.Genres {
				if wants[g] || g == wild {
					match++
				}
			}
		}
		return float64(2*match) - balance + float64(c.Points+c.Tickets)/5, true
	}); i >= 0 {
		return i
	}
	for i, m := range moves {
		if m.GetUpgrade() != nil {
			return i
		}
	}
	if moves[0].GetRefresh() != nil {
		return len(moves) - 1
	}
	return 0
}

// Movie Trailer: name a film only when it is the one film every face-up tile fits; pass
// otherwise.
func movieTrailer(o *pb.MovieTrailerObservation, moves []*pb.MovieTrailerMove, data *GameData) int {
	var fitting []int
	pass, guesses := -1, 0
	for i, m := range moves {
		if m.GetPassGuess() != nil {
			pass = i
		}
		g := m.GetGuess()
		if g == nil {
			continue
		}
		guesses++
		film := data.Film(g.Film)
		if film == nil {
			continue
		}
		fits := map[string]map[int32]bool{}
		for _, f := range film.Fits {
			fits[f.Category] = map[int32]bool{}
			for _, t := range f.Tiles {
				fits[f.Category][t] = true
			}
		}
		ok := true
		for _, slot := range o.Board {
			if slot.Tile != nil && *slot.Tile != 0 && !fits[slot.Category][*slot.Tile] {
				ok = false
				break
			}
		}
		if ok {
			fitting = append(fitting, i)
		}
	}
	if guesses == 0 {
		return 0
	}
	if len(fitting) == 1 || (len(fitting) > 0 && pass < 0) {
		return fitting[0]
	}
	if pass >= 0 {
		return pass
	}
	return 0
}

// choose is the index of the move to answer: the game's strategy, 0 for a game it does not know.
func choose(request *pb.DecisionRequest, data *GameData) int {
	seat, n := int(request.Seat), len(request.LegalMoves)
	if n <= 1 || data == nil {
		return 0
	}
	var index int
	switch request.Game {
	case "magic-trick":
		moves := make([]*pb.MagicTrickMove, n)
		for i, m := range request.LegalMoves {
			moves[i] = m.GetMagicTrick()
		}
		index = magicTrick(request.Observation.GetMagicTrick(), moves, seat)
	case "movie-tricks":
		moves := make([]*pb.MovieTricksMove, n)
		for i, m := range request.LegalMoves {
			moves[i] = m.GetMovieTricks()
		}
		index = movieTricks(request.Observation.GetMovieTricks(), moves, seat, data)
	case "movie-fight":
		moves := make([]*pb.MovieFightMove, n)
		for i, m := range request.LegalMoves {
			moves[i] = m.GetMovieFight()
		}
		index = movieFight(request.Observation.GetMovieFight(), moves, seat, data)
	case "movie-trailer":
		moves := make([]*pb.MovieTrailerMove, n)
		for i, m := range request.LegalMoves {
			moves[i] = m.GetMovieTrailer()
		}
		index = movieTrailer(request.Observation.GetMovieTrailer(), moves, data)
	case "motion-pictures":
		moves := make([]*pb.MotionPicturesMove, n)
		for i, m := range request.LegalMoves {
			moves[i] = m.GetMotionPictures()
		}
		index = motionPictures(request.Observation.GetMotionPictures(), moves, seat, data)
	}
	if index < 0 || index >= n {
		return 0
	}
	return index
}
