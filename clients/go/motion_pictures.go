// Motion Pictures: finish projects the hand can complete, hire advanced filmmakers for starting
// ones, and bury unneeded starting filmmakers on the trilogy. A port of the engine's own
// heuristic (a plan to complete each project from the hand, a score per move), reading the
// filmmakers and projects by id from the served game data and the rules' wildcard and hire
// costs from it too.
package main

import (
	"math"
	"sort"

	pb "premiere/v1"
)

var effectValue = map[string]float64{"draw": 0.8, "audition": 0.9, "fame": 0.7, "fire": 0.5}

const anySkill = "any"

func counts(items []string) map[string]int {
	c := map[string]int{}
	for _, item := range items {
		c[item]++
	}
	return c
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func contains(items []string, x string) bool {
	for _, item := range items {
		if item == x {
			return true
		}
	}
	return false
}

// mpRules holds the rules of the four project types over one seat's filmmakers, as the engine
// states them.
type mpRules struct {
	wild                      string
	hireAnyCost, auditionCost int
}

func newMPRules(data *GameData) mpRules {
	r := mpRules{wild: anySkill, hireAnyCost: 2, auditionCost: 2}
	if own := data.Raw.GetMotionPictures(); own != nil {
		if own.Wild != "" {
			r.wild = own.Wild
		}
		if rules := own.Rules; rules != nil {
			if rules.HireAnyCost > 0 {
				r.hireAnyCost = int(rules.HireAnyCost)
			}
			if rules.AuditionCost > 0 {
				r.auditionCost = int(rules.AuditionCost)
			}
		}
	}
	return r
}

func skillsOf(cards []*pb.MotionPicturesFilmmaker) []string {
	var skills []string
	for _, c := range cards {
		skills = append(skills, c.Skills...)
	}
	return skills
}

func with(cards []*pb.MotionPicturesFilmmaker, card *pb.MotionPicturesFilmmaker) []*pb.MotionPicturesFilmmaker {
	return append(append(make([]*pb.MotionPicturesFilmmaker, 0, len(cards)+1), cards...), card)
}

// fits says whether every non-wild skill is one of the needs (as a multiset); wilds fill
// whatever is left.
func (r mpRules) fits(skills, needs []string) bool {
	need := counts(needs)
	for skill, n := range counts(skills) {
		if skill != r.wild && need[skill] < n {
			return false
		}
	}
	return true
}

func (r mpRules) mayPlace(p *pb.MotionPicturesProject, mine []*pb.MotionPicturesFilmmaker, card *pb.MotionPicturesFilmmaker) bool {
	switch p.Type {
	case "tv":
		for _, s := range card.Skills {
			if contains(p.Forbidden, s) {
				return false
			}
		}
	case "award":
		skills := append(skillsOf(mine), card.Skills...)
		return len(skills) <= len(p.Needs) && r.fits(skills, p.Needs)
	}
	return true
}

// missingSkills is how many of needs the skills leave unmet: an "any" need takes any skill, a
// wild skill meets any need.
func (r mpRules) missingSkills(needs, skills []string) int {
	need, have := map[string]int{}, map[string]int{}
	named, wilds := 0, 0
	for _, s := range needs {
		if s != anySkill {
			need[s]++
			named++
		}
	}
	for _, s := range skills {
		if s == r.wild {
			wilds++
		} else {
			have[s]++
		}
	}
	short, spare := 0, 0
	for s, n := range need {
		short += maxInt(0, n-have[s])
	}
	for s, n := range have {
		spare += maxInt(0, n-need[s])
	}
	covered := minInt(short, wilds)
	openAny := len(needs) - named
	return short - covered + maxInt(0, openAny-spare-(wilds-covered))
}

// missing is how many more skills (or specialties) this seat must still bring to the project.
func (r mpRules) missing(p *pb.MotionPicturesProject, mine []*pb.MotionPicturesFilmmaker) int {
	switch p.Type {
	case "movie":
		return r.missingSkills(p.Needs, skillsOf(mine))
	case "commercial":
		have := map[string]int{}
		for _, c := range mine {
			have[c.Specialty]++
		}
		short := 0
		for s, n := range counts(p.Needs) {
			short += maxInt(0, n-have[s])
		}
		return short
	case "tv":
		return maxInt(0, int(p.Count)-len(skillsOf(mine)))
	}
	return len(p.Needs) - len(skillsOf(mine))
}

func isKind(p *pb.MotionPicturesProject, kind string) bool {
	return kind == anySkill || kind == p.Type || (p.Genre != nil && kind == *p.Genre)
}

// cardValue is how much a filmmaker is worth keeping: its skills, a wildcard, its ability,
// being advanced.
func (r mpRules) cardValue(c *pb.MotionPicturesFilmmaker) float64 {
	if c == nil {
		return 0
	}
	value := float64(len(c.Skills))
	if contains(c.Skills, r.wild) {
		value += 0.5
	}
	if a := c.Ability; a != nil {
		if a.Timing == "ongoing" {
			value += 0.7
		} else if a.Timing == "play" {
			value += effectValue[a.Effect] * float64(a.Amount)
		}
	}
	if c.Start == 0 {
		value++
	}
	return value
}

// completionPlan picks greedily the hand cards that complete the project; ok is false if the
// hand cannot.
func (r mpRules) completionPlan(p *pb.MotionPicturesProject, mine, hand []*pb.MotionPicturesFilmmaker) (plan []*pb.MotionPicturesFilmmaker, ok bool) {
	placed := append([]*pb.MotionPicturesFilmmaker{}, mine...)
	left := append([]*pb.MotionPicturesFilmmaker{}, hand...)
	for short := r.missing(p, placed); short > 0; short = r.missing(p, placed) {
		best, bestGain, bestCost := -1, 0, 0.0
		for i, c := range left {
			if !r.mayPlace(p, placed, c) {
				continue
			}
			gain, cost := short-r.missing(p, with(placed, c)), -r.cardValue(c)
			if gain > 0 && (best < 0 || gain > bestGain || (gain == bestGain && cost > bestCost)) {
				best, bestGain, bestCost = i, gain, cost
			}
		}
		if best < 0 {
			return nil, false
		}
		placed = append(placed, left[best])
		plan = append(plan, left[best])
		left = append(left[:best], left[best+1:]...)
	}
	return plan, true
}

func timedValue(c *pb.MotionPicturesFilmmaker, timing string) float64 {
	if c == nil || c.Ability == nil || c.Ability.Timing != timing {
		return 0
	}
	return effectValue[c.Ability.Effect] * float64(c.Ability.Amount)
}

type mpSlot struct {
	project *pb.MotionPicturesProject
	placed  [][]*pb.MotionPicturesFilmmaker
}

// mpPosition is one decision: the observation with its cards resolved through the game's data.
type mpPosition struct {
	rules     mpRules
	seat      int
	hand      []*pb.MotionPicturesFilmmaker
	handByID  map[int32]*pb.MotionPicturesFilmmaker
	rowByID   map[int32]*pb.MotionPicturesFilmmaker
	slots     map[int32]*mpSlot
	order     []*mpSlot
	completed []*pb.MotionPicturesProject
}

func newMPPosition(o *pb.MotionPicturesObservation, seat int, data *GameData) *mpPosition {
	filmmaker := func(c *pb.MotionPicturesFilmmaker) *pb.MotionPicturesFilmmaker {
		if known := data.Filmmaker(c.Id); known != nil {
			return known
		}
		return c
	}
	project := func(p *pb.MotionPicturesProject) *pb.MotionPicturesProject {
		if p == nil {
			return nil
		}
		if known := data.Project(p.Id); known != nil {
			return known
		}
		return p
	}
	pos := &mpPosition{rules: newMPRules(data), seat: seat,
		handByID: map[int32]*pb.MotionPicturesFilmmaker{}, rowByID: map[int32]*pb.MotionPicturesFilmmaker{},
		slots: map[int32]*mpSlot{}}
	for _, c := range o.Hand {
		card := filmmaker(c)
		pos.hand = append(pos.hand, card)
		pos.handByID[card.Id] = card
	}
	for _, c := range o.Row {
		pos.rowByID[c.Id] = filmmaker(c)
	}
	for _, s := range o.Slots {
		slot := &mpSlot{project: project(s.Project)}
		for _, seatCards := range s.Placed {
			var cards []*pb.MotionPicturesFilmmaker
			for _, c := range seatCards.Filmmakers {
				cards = append(cards, filmmaker(c))
			}
			slot.placed = append(slot.placed, cards)
		}
		pos.slots[s.Slot] = slot
		pos.order = append(pos.order, slot)
	}
	if seat < len(o.Studios) {
		for _, p := range o.Studios[seat].Completed {
			pos.completed = append(pos.completed, project(p))
		}
	}
	return pos
}

func (pos *mpPosition) mine(s *mpSlot) []*pb.MotionPicturesFilmmaker {
	if pos.seat < len(s.placed) {
		return s.placed[pos.seat]
	}
	return nil
}

// usefulness is how much a card helps towards the projects within reach right now.
func (pos *mpPosition) usefulness(card *pb.MotionPicturesFilmmaker) float64 {
	best := 0.0
	for _, s := range pos.order {
		if s.project == nil {
			continue
		}
		mine := pos.mine(s)
		if !pos.rules.mayPlace(s.project, mine, card) {
			continue
		}
		if pos.rules.missing(s.project, with(mine, card)) < pos.rules.missing(s.project, mine) {
			best = math.Max(best, 1+float64(s.project.Fame)/10)
		}
	}
	return best
}

// bonusEstimate is the fame a project would bring beyond its own: its bonus and the bonuses of
// the projects completed before it.
func (pos *mpPosition) bonusEstimate(p *pb.MotionPicturesProject) float64 {
	value := 0
	for _, done := range pos.completed {
		if p.Bonus != nil && isKind(done, p.Bonus.Kind) {
			value += int(p.Bonus.Fame)
		}
		if done.Bonus != nil && isKind(p, done.Bonus.Kind) {
			value += int(done.Bonus.Fame)
		}
	}
	return float64(value)
}

func (pos *mpPosition) shootScore(m *pb.MotionPicturesShoot) float64 {
	s, card := pos.slots[m.Slot], pos.handByID[m.Card]
	if s == nil || s.project == nil || card == nil {
		return -5
	}
	p, mine := s.project, pos.mine(s)
	before, after := pos.rules.missing(p, mine), pos.rules.missing(p, with(mine, card))
	if before == after {
		return -3
	}
	worth := float64(p.Fame) + pos.bonusEstimate(p)
	extra := timedValue(card, "play")
	if after == 0 {
		return 10 + worth + extra
	}
	var rest []*pb.MotionPicturesFilmmaker
	for _, c := range pos.hand {
		if c.Id != card.Id {
			rest = append(rest, c)
		}
	}
	rivals := 0
	for other, placed := range s.placed {
		if other != pos.seat {
			rivals = maxInt(rivals, len(placed))
		}
	}
	if plan, ok := pos.rules.completionPlan(p, with(mine, card), rest); ok {
		return 4 + worth/float64(1+len(plan)) + extra - float64(rivals) - 0.3*pos.rules.cardValue(card)
	}
	return float64(before-after)*worth/(3*float64(before+1)) + extra - float64(rivals) - 1
}

// hireCost is the value of the cheapest n cards in hand: what a hire paid by discards gives up.
func (pos *mpPosition) hireCost(n int) float64 {
	values := make([]float64, len(pos.hand))
	for i, c := range pos.hand {
		values[i] = pos.rules.cardValue(c)
	}
	sort.Float64s(values)
	total := 0.0
	for i := 0; i < n && i < len(values); i++ {
		total += values[i]
	}
	return total
}

func (pos *mpPosition) score(m *pb.MotionPicturesMove) float64 {
	value := pos.rules.cardValue
	switch {
	case m.GetShoot() != nil:
		return pos.shootScore(m.GetShoot())
	case m.GetTrilogy() != nil:
		card := pos.handByID[m.GetTrilogy().Card]
		if card == nil {
			return -5
		}
		useful, skills := pos.usefulness(card), float64(len(card.Skills))
		if card.Start != 0 {
			return 1.5 - useful + 0.2*skills
		}
		return 0.3*skills - useful - 1
	case m.GetHireMatch() != nil:
		hire := pos.rowByID[m.GetHireMatch().Hire]
		if hire == nil {
			return -5
		}
		return value(hire) - value(pos.handByID[m.GetHireMatch().Discard]) + timedValue(hire, "hire") - 0.5
	case m.GetHireAny() != nil:
		hire := pos.rowByID[m.GetHireAny().Hire]
		if hire == nil {
			return -5
		}
		return value(hire) + timedValue(hire, "hire") - pos.hireCost(pos.rules.hireAnyCost) - 0.8
	case m.GetAudition() != nil:
		return 3 - pos.hireCost(pos.rules.auditionCost) - 0.8
	case m.GetRecruit() != nil:
		return -2 - value(pos.handByID[m.GetRecruit().Discard])*0.1
	}
	return -5
}

// cheapestCard is the index of the move whose card (by pick) is worth least, among those for
// which pick names a card in hand that keep accepts; -1 if none.
func (pos *mpPosition) cheapestCard(moves []*pb.MotionPicturesMove, pick func(*pb.MotionPicturesMove) (int32, bool), keep func(*pb.MotionPicturesFilmmaker) bool) int {
	return bestIndex(len(moves), func(i int) (float64, bool) {
		id, ok := pick(moves[i])
		card := pos.handByID[id]
		if !ok || card == nil || !keep(card) {
			return 0, false
		}
		return -pos.rules.cardValue(card), true
	})
}

func motionPictures(o *pb.MotionPicturesObservation, moves []*pb.MotionPicturesMove, seat int, data *GameData) int {
	pos := newMPPosition(o, seat, data)
	anyCard := func(*pb.MotionPicturesFilmmaker) bool { return true }
	switch o.Phase {
	case "discard":
		return maxInt(0, pos.cheapestCard(moves, func(m *pb.MotionPicturesMove) (int32, bool) {
			return m.GetDiscard().GetCard(), m.GetDiscard() != nil
		}, anyCard))
	case "fire":
		return maxInt(0, pos.cheapestCard(moves, func(m *pb.MotionPicturesMove) (int32, bool) {
			return m.GetFire().GetCard(), m.GetFire() != nil
		}, func(c *pb.MotionPicturesFilmmaker) bool { return c.Start != 0 }))
	}
	acts := false
	for _, m := range moves {
		acts = acts || m.GetShoot() != nil || m.GetRecruit() != nil
	}
	if !acts {
		for i, m := range moves {
			if m.GetSkip() != nil {
				return i
			}
		}
		return 0
	}
	return maxInt(0, bestIndex(len(moves), func(i int) (float64, bool) { return pos.score(moves[i]), true }))
}
