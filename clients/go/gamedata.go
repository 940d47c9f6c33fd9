// Typed access to a game's data (GameDataService.GetGameData, proto/premiere/v1/game_data.proto):
// what the numbers and ids of observations and moves name, fetched once per digest.
//
//	data, err := store.Get(ctx, "movie-fight", started.GameDataDigest)
//	card := data.FightCard(observation.Offer[0])   // *pb.MovieFightCardData: card.Genres, card.Viewer
//	film := data.Film("king-kong-1933")           // *pb.MovieTrailerFilm
package main

import (
	"context"
	"sync"
	"time"

	"google.golang.org/grpc"

	pb "premiere/v1"
)

// GameData is one game's data with indexes by number and id.
type GameData struct {
	Raw         *pb.GameData
	fightCards  map[int32]*pb.MovieFightCardData
	fightTiles  map[int32]*pb.MovieFightTileData
	trailerTile map[int32]*pb.MovieTrailerTileData
	films       map[string]*pb.MovieTrailerFilm
	tricksCards map[int32]*pb.MovieTricksCard
	filmmakers  map[int32]*pb.MotionPicturesFilmmaker
	projects    map[int32]*pb.MotionPicturesProject
}

// NewGameData indexes a GameData message.
func NewGameData(raw *pb.GameData) *GameData {
	d := &GameData{Raw: raw,
		fightCards: map[int32]*pb.MovieFightCardData{}, fightTiles: map[int32]*pb.MovieFightTileData{},
		trailerTile: map[int32]*pb.MovieTrailerTileData{}, films: map[string]*pb.MovieTrailerFilm{},
		tricksCards: map[int32]*pb.MovieTricksCard{}, filmmakers: map[int32]*pb.MotionPicturesFilmmaker{},
		projects: map[int32]*pb.MotionPicturesProject{}}
	if f := raw.GetMovieFight(); f != nil {
		for _, c := range f.Cards {
			d.fightCards[c.Number] = c
		}
		for _, t := range f.Tiles {
			d.fightTiles[t.Number] = t
		}
	}
	if t := raw.GetMovieTrailer(); t != nil {
		for _, tile := range t.Tiles {
			d.trailerTile[tile.Number] = tile
		}
		for _, film := range t.Films {
			d.films[film.Id] = film
		}
	}
	if t := raw.GetMovieTricks(); t != nil {
		for _, c := range t.Cards {
			d.tricksCards[c.Id] = c
		}
	}
	if m := raw.GetMotionPictures(); m != nil {
		for _, c := range m.Filmmakers {
			d.filmmakers[c.Id] = c
		}
		for _, p := range m.Projects {
			d.projects[p.Id] = p
		}
	}
	return d
}

// FightCard is a Movie Fight card by its printed number (nil if unknown).
func (d *GameData) FightCard(number int32) *pb.MovieFightCardData { return d.fightCards[number] }

// FightTile is a Movie Fight cinema tile by number.
func (d *GameData) FightTile(number int32) *pb.MovieFightTileData { return d.fightTiles[number] }

// TrailerTile is a Movie Trailer clue tile by number.
func (d *GameData) TrailerTile(number int32) *pb.MovieTrailerTileData { return d.trailerTile[number] }

// Film is a Movie Trailer film by catalog id.
func (d *GameData) Film(id string) *pb.MovieTrailerFilm { return d.films[id] }

// TricksCard is a Movie Tricks card by id.
func (d *GameData) TricksCard(id int32) *pb.MovieTricksCard { return d.tricksCards[id] }

// Filmmaker is a Motion Pictures filmmaker by id.
func (d *GameData) Filmmaker(id int32) *pb.MotionPicturesFilmmaker { return d.filmmakers[id] }

// Project is a Motion Pictures project by id.
func (d *GameData) Project(id int32) *pb.MotionPicturesProject { return d.projects[id] }

// GameDataStore fetches each game's data from the arbiter once per digest; it needs no token.
type GameDataStore struct {
	client pb.GameDataServiceClient
	mu     sync.Mutex
	cache  map[string]*GameData
}

// NewGameDataStore uses an open connection to the arbiter.
func NewGameDataStore(conn *grpc.ClientConn) *GameDataStore {
	return &GameDataStore{client: pb.NewGameDataServiceClient(conn), cache: map[string]*GameData{}}
}

// Get returns the game's data, fetching it when none is cached or its digest differs (an
// empty digest takes whatever is cached).
func (s *GameDataStore) Get(ctx context.Context, game, digest string) (*GameData, error) {
	s.mu.Lock()
	known := s.cache[game]
	s.mu.Unlock()
	if known != nil && (digest == "" || known.Raw.Digest == digest) {
		return known, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	reply, err := s.client.GetGameData(ctx, &pb.GetGameDataRequest{Game: game})
	if err != nil {
		return nil, err
	}
	data := NewGameData(reply.Data)
	s.mu.Lock()
	s.cache[game] = data
	s.mu.Unlock()
	return data, nil
}
