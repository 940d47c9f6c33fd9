// Motion Pictures: finish projects the hand can complete, hire advanced filmmakers for starting
// ones, and bury unneeded starting filmmakers on the trilogy. A port of the engine's own
// heuristic (a plan to complete each project from the hand, a score per move), reading the
// filmmakers and projects by id from the served game data and the rules' wildcard and hire
// costs from it too.
"use strict";

const EFFECT_VALUE = { draw: 0.8, audition: 0.9, fame: 0.7, fire: 0.5 };

function counter(items) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) || 0) + 1);
  return counts;
}

function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

// The rules of the four project types over one seat's filmmakers, as the engine states them.
class Rules {
  constructor(data) {
    const own = data.own;
    this.wild = own.wild || "any";
    this.any = "any";
    const rules = own.rules || {};
    this.hireAnyCost = rules.hire_any_cost || 2;
    this.auditionCost = rules.audition_cost || 2;
  }

  skillsOf(cards) {
    return cards.flatMap((card) => card.skills);
  }

  // Every non-wild skill is one of the needs (as a multiset); wilds fill whatever is left.
  fits(skills, needs) {
    const need = counter(needs);
    const have = counter(skills.filter((s) => s !== this.wild));
    return [...have].every(([skill, n]) => (need.get(skill) || 0) >= n);
  }

  mayPlace(project, mine, card) {
    if (project.type === "tv") return !card.skills.some((s) => project.forbidden.includes(s));
    if (project.type === "award") {
      const skills = [...this.skillsOf(mine), ...card.skills];
      return skills.length <= project.needs.length && this.fits(skills, project.needs);
    }
    return true;
  }

  // How many of `needs` the skills leave unmet: an "any" need takes any skill, a wild skill
  // meets any need.
  missingSkills(needs, skills) {
    const need = counter(needs.filter((s) => s !== this.any));
    const have = counter(skills.filter((s) => s !== this.wild));
    const wilds = skills.length - sum([...have.values()]);
    const short = sum([...need].map(([s, n]) => Math.max(0, n - (have.get(s) || 0))));
    const spare = sum([...have].map(([s, n]) => Math.max(0, n - (need.get(s) || 0))));
    const covered = Math.min(short, wilds);
    const openAny = needs.length - sum([...need.values()]);
    return short - covered + Math.max(0, openAny - spare - (wilds - covered));
  }

  // How many more skills (or specialties) this seat must still bring to complete the project.
  missing(project, mine) {
    if (project.type === "movie") return this.missingSkills(project.needs, this.skillsOf(mine));
    if (project.type === "commercial") {
      const have = counter(mine.map((card) => card.specialty));
      return sum([...counter(project.needs)].map(([s, n]) => Math.max(0, n - (have.get(s) || 0))));
    }
    if (project.type === "tv") return Math.max(0, project.count - this.skillsOf(mine).length);
    return project.needs.length - this.skillsOf(mine).length;
  }

  isKind(project, kind) {
    return kind === this.any || kind === project.type || (project.genre != null && kind === project.genre);
  }

  // The end-game fame of a blue project among the others completed with it.
  projectBonus(project, others) {
    const bonus = project.bonus;
    if (!bonus) return 0;
    return bonus.fame * others.filter((p) => this.isKind(p, bonus.kind)).length;
  }

  // How much a filmmaker is worth keeping: its skills, a wildcard, its ability, being advanced.
  cardValue(card) {
    let value = card.skills.length + (card.skills.includes(this.wild) ? 0.5 : 0);
    const ability = card.ability;
    if (ability) {
      if (ability.timing === "ongoing") value += 0.7;
      else if (ability.timing === "play") value += (EFFECT_VALUE[ability.effect] || 0) * ability.amount;
    }
    return value + (card.start ? 0 : 1);
  }

  // Hand cards that complete the project, picked greedily, or null if the hand cannot.
  completionPlan(project, mine, hand) {
    const placed = [...mine];
    const left = [...hand];
    const plan = [];
    let short = this.missing(project, placed);
    while (short > 0) {
      let best = null;
      for (const card of left) {
        if (!this.mayPlace(project, placed, card)) continue;
        const gain = short - this.missing(project, [...placed, card]);
        const cost = -this.cardValue(card);
        if (gain > 0 && (best === null || gain > best.gain || (gain === best.gain && cost > best.cost))) {
          best = { gain, cost, card };
        }
      }
      if (best === null) return null;
      placed.push(best.card);
      left.splice(left.indexOf(best.card), 1);
      plan.push(best.card);
      short = this.missing(project, placed);
    }
    return plan;
  }
}

function onHireValue(card) {
  const ability = card.ability;
  return ability && ability.timing === "hire" ? (EFFECT_VALUE[ability.effect] || 0) * ability.amount : 0;
}

function onPlayValue(card) {
  const ability = card.ability;
  return ability && ability.timing === "play" ? (EFFECT_VALUE[ability.effect] || 0) * ability.amount : 0;
}

// One decision: the observation with its cards resolved through the game's data.
class Position {
  constructor(o, seat, data) {
    this.rules = new Rules(data);
    this.seat = seat;
    const filmmaker = (card) => data.card(card.id) || card;
    const project = (p) => (p ? data.project(p.id) || p : null);
    this.hand = o.hand.map(filmmaker);
    this.handById = new Map(this.hand.map((card) => [card.id, card]));
    this.rowById = new Map(o.row.map(filmmaker).map((card) => [card.id, card]));
    this.slots = new Map(o.slots.map((slot) => [slot.slot, {
      project: project(slot.project),
      placed: slot.placed.map((seatCards) => seatCards.filmmakers.map(filmmaker)),
    }]));
    const studio = o.studios[seat];
    this.completed = studio ? studio.completed.map(project) : [];
  }

  mine(slot) {
    return slot.placed[this.seat] || [];
  }

  // How much a card helps towards the projects within reach right now.
  usefulness(card) {
    let best = 0;
    for (const slot of this.slots.values()) {
      const project = slot.project;
      if (!project) continue;
      const mine = this.mine(slot);
      if (!this.rules.mayPlace(project, mine, card)) continue;
      if (this.rules.missing(project, [...mine, card]) < this.rules.missing(project, mine)) {
        best = Math.max(best, 1 + project.fame / 10);
      }
    }
    return best;
  }

  // Fame a project would bring beyond its own: its bonus and the bonuses of those completed.
  bonusEstimate(project) {
    let value = this.rules.projectBonus(project, this.completed);
    for (const done of this.completed) {
      if (done.bonus && this.rules.isKind(project, done.bonus.kind)) value += done.bonus.fame;
    }
    return value;
  }

  shootScore(move) {
    const slot = this.slots.get(move.slot);
    const card = this.handById.get(move.card);
    if (!slot || !slot.project || !card) return -5;
    const project = slot.project;
    const mine = this.mine(slot);
    const before = this.rules.missing(project, mine);
    const after = this.rules.missing(project, [...mine, card]);
    if (before === after) return -3;
    const worth = project.fame + this.bonusEstimate(project);
    const extra = onPlayValue(card);
    if (after === 0) return 10 + worth + extra;
    const rest = this.hand.filter((c) => c.id !== card.id);
    const plan = this.rules.completionPlan(project, [...mine, card], rest);
    const rivals = Math.max(0, ...slot.placed.filter((_, other) => other !== this.seat).map((p) => p.length));
    if (plan !== null) {
      return 4 + worth / (1 + plan.length) + extra - rivals - 0.3 * this.rules.cardValue(card);
    }
    return ((before - after) * worth) / (3 * (before + 1)) + extra - rivals - 1;
  }

  score(move) {
    const value = (card) => (card ? this.rules.cardValue(card) : 0);
    switch (move.kind) {
      case "shoot":
        return this.shootScore(move.shoot);
      case "trilogy": {
        const card = this.handById.get(move.trilogy.card);
        if (!card) return -5;
        const useful = this.usefulness(card);
        return card.start ? 1.5 - useful + 0.2 * card.skills.length : 0.3 * card.skills.length - useful - 1;
      }
      case "hire_match": {
        const hire = this.rowById.get(move.hire_match.hire);
        if (!hire) return -5;
        return value(hire) - value(this.handById.get(move.hire_match.discard)) + onHireValue(hire) - 0.5;
      }
      case "hire_any":
      case "audition": {
        const cost = move.kind === "hire_any" ? this.rules.hireAnyCost : this.rules.auditionCost;
        const costs = sum(this.hand.map(value).sort((a, b) => a - b).slice(0, cost));
        const hire = move.kind === "hire_any" ? this.rowById.get(move.hire_any.hire) : null;
        const target = hire ? value(hire) + onHireValue(hire) : 3;
        return target - costs - 0.8;
      }
      case "recruit":
        return -2 - value(this.handById.get(move.recruit.discard)) * 0.1;
      default:
        return -5;
    }
  }
}

// The index of the move with the least card value among moves of `kind` naming `field`.
function cheapest(position, moves, kind, field, filter = () => true) {
  let chosen = -1;
  let low = Infinity;
  moves.forEach((move, index) => {
    if (move.kind !== kind) return;
    const card = position.handById.get(move[kind][field]);
    if (!card || !filter(card)) return;
    const value = position.rules.cardValue(card);
    if (value < low) {
      low = value;
      chosen = index;
    }
  });
  return chosen;
}

function motionPictures(o, moves, seat, data) {
  const position = new Position(o, seat, data);
  if (o.phase === "discard") return Math.max(0, cheapest(position, moves, "discard", "card"));
  if (o.phase === "fire") return Math.max(0, cheapest(position, moves, "fire", "card", (card) => card.start));
  if (!moves.some((m) => m.kind === "shoot" || m.kind === "recruit")) {
    return Math.max(0, moves.findIndex((m) => m.kind === "skip"));
  }
  let chosen = 0;
  let top = -Infinity;
  moves.forEach((move, index) => {
    const value = position.score(move);
    if (value > top) {
      top = value;
      chosen = index;
    }
  });
  return chosen;
}

module.exports = { motionPictures, Rules };
