// A worked example of a strategy: Movie Trailer's guesser, reading the observation, the legal
// moves and the game's data. Start from it to write your own; for a strong opponent to test
// against, challenge the arbiter's built-in `heuristic` or `search:*` players.
package main

import (
	"fmt"

	pb "premiere/v1"
)

// strategies are the example's strategies by game id. Each returns its choice and whether it
// made one; without one the bot picks a move at random.
var strategies = map[string]func(*pb.DecisionRequest, *GameData) (Choice, bool){
	"movie-trailer": movieTrailer,
}

// movieTrailer: the face-up clue tiles on the board narrow the films down. Name a film only
// when it is the one film every face-up tile fits (MovieTrailerData.Films: each film lists, per
// category, the tiles that fit it); pass otherwise, and leave any other decision to chance.
func movieTrailer(request *pb.DecisionRequest, data *GameData) (Choice, bool) {
	observation := request.Observation.GetMovieTrailer()
	guesses, pass := []int{}, -1
	for i, move := range request.LegalMoves {
		switch move.GetMovieTrailer().Kind.(type) {
		case *pb.MovieTrailerMove_Guess:
			guesses = append(guesses, i)
		case *pb.MovieTrailerMove_PassGuess:
			pass = i
		}
	}
	if len(guesses) == 0 || observation == nil {
		return Choice{}, false
	}
	fitting := []int{}
	for _, i := range guesses {
		film := data.MovieTrailerFilms(request.LegalMoves[i].GetMovieTrailer().GetGuess().Film)
		if film != nil && fitsEveryTile(film, observation.Board) {
			fitting = append(fitting, i)
		}
	}
	if len(fitting) == 1 || (len(fitting) > 0 && pass < 0) {
		note := fmt.Sprintf("the one film of %d that every tile fits", len(guesses))
		return Choice{Index: uint32(fitting[0]), Note: note}, true
	}
	if pass < 0 {
		return Choice{}, false
	}
	return Choice{Index: uint32(pass), Note: fmt.Sprintf("%d films fit the tiles", len(fitting))}, true
}

// fitsEveryTile says whether each face-up tile on the board is one of the film's tiles for its
// slot's category.
func fitsEveryTile(film *pb.MovieTrailerFilm, board []*pb.MovieTrailerSlot) bool {
	fits := map[string]map[int32]bool{}
	for _, f := range film.Fits {
		fits[f.Category] = map[int32]bool{}
		for _, tile := range f.Tiles {
			fits[f.Category][tile] = true
		}
	}
	for _, slot := range board {
		if slot.Tile != nil && !fits[slot.Category][*slot.Tile] {
			return false
		}
	}
	return true
}

// example is the example strategy's choice for request, if it has one.
func example(request *pb.DecisionRequest, data *GameData) (Choice, bool) {
	if strategy, ok := strategies[request.Game]; ok && len(request.LegalMoves) > 1 {
		return strategy(request, data)
	}
	return Choice{}, false
}
