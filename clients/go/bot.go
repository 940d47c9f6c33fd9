// A Premiere bot in Go. It dials the arbiter, says Hello, answers every decision request with
// the index of a legal move (a deterministic pick from the request, so a replay plays the
// same), and prints a line when each of its matches starts and ends. It reconnects with
// backoff after any drop, and stops at once if the arbiter refuses its token or its Hello.
// With -example it plays by the worked example strategy (example.go, Movie Trailer's guesser),
// which reads the game's data (gamedata.go), fetched once per digest from GameDataService; other
// games and decisions are played at random.
//
//	PREMIERE_BOT_TOKEN=T ./premiere-bot-go -arbiter 127.0.0.1:50051 [-games magic-trick] [-max-matches 4]
//
// Build it with ./build.sh (Debian: golang-go, golang-google-grpc-dev,
// golang-google-protobuf-dev, protobuf-compiler, protoc-gen-go, protoc-gen-go-grpc).
package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "premiere/v1"
)

const client = "premiere-bot-go/0.1"

type options struct {
	arbiter    string
	token      string
	games      []string
	maxMatches uint
	tls        bool
	verbose    bool
	example    bool
	notes      bool
}

// maxNoteBytes is the longest note the arbiter accepts on an answer (DecisionAnswer.note).
const maxNoteBytes = 512

// Choice is what a strategy answers: the index of a legal move and, optionally, a short note
// on it (its plan, its estimate). The arbiter stores the note with the move and shows it beside
// it in the replay once the match has ended, never while it runs.
type Choice struct {
	Index uint32
	Note  string
}

// answerFor is the wire answer to request for choice; an error for a note the arbiter would
// refuse.
func answerFor(request *pb.DecisionRequest, choice Choice) (*pb.DecisionAnswer, error) {
	if len(choice.Note) > maxNoteBytes {
		return nil, fmt.Errorf("a note of %d bytes; the arbiter takes %d at most", len(choice.Note), maxNoteBytes)
	}
	if strings.ContainsRune(choice.Note, 0) {
		return nil, fmt.Errorf("a note with a NUL character; the arbiter takes none")
	}
	return &pb.DecisionAnswer{
		RequestId: request.RequestId,
		Choice:    &pb.DecisionAnswer_LegalMoveIndex{LegalMoveIndex: choice.Index},
		Note:      choice.Note,
	}, nil
}

func logf(format string, args ...interface{}) {
	fmt.Printf("%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func parse() options {
	var o options
	var games string
	flag.StringVar(&o.arbiter, "arbiter", envOr("PREMIERE_ARBITER", "127.0.0.1:50051"),
		"the arbiter's gRPC address (or env PREMIERE_ARBITER)")
	flag.StringVar(&games, "games", os.Getenv("PREMIERE_BOT_GAMES"),
		"comma-separated game ids to play (default: every game, or env PREMIERE_BOT_GAMES)")
	defaultMatches := uint(4)
	if n, err := strconv.ParseUint(os.Getenv("PREMIERE_MAX_MATCHES"), 10, 32); err == nil && n > 0 {
		defaultMatches = uint(n)
	}
	flag.UintVar(&o.maxMatches, "max-matches", defaultMatches,
		"matches played at once (at least 1; default 4, or env PREMIERE_MAX_MATCHES)")
	flag.BoolVar(&o.tls, "tls", os.Getenv("PREMIERE_TLS") == "1",
		"dial over TLS with the system's roots (or env PREMIERE_TLS=1)")
	flag.BoolVar(&o.verbose, "verbose", false, "print every decision")
	flag.BoolVar(&o.example, "example", false,
		"play by the example strategy (example.go) where it has one, reading the game's data")
	flag.BoolVar(&o.notes, "notes", false,
		"attach a note to every answer saying how the move was picked (shown in the replay after the match)")
	flag.Parse()
	o.token = os.Getenv("PREMIERE_BOT_TOKEN")
	if o.token == "" {
		fmt.Fprintln(os.Stderr, "error: set PREMIERE_BOT_TOKEN to the token `premiere bots add` printed")
		os.Exit(2)
	}
	if o.maxMatches < 1 {
		fmt.Fprintln(os.Stderr, "error: -max-matches is at least 1")
		os.Exit(2)
	}
	for _, game := range strings.Split(games, ",") {
		if game = strings.TrimSpace(game); game != "" {
			o.games = append(o.games, game)
		}
	}
	return o
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

// pick is a pseudo-random legal move index drawn from what the seat sees: the same request
// always gets the same answer.
func pick(request *pb.DecisionRequest) uint32 {
	digest := sha256.Sum256([]byte(fmt.Sprintf("%s/%d/%d", request.MatchId, request.Seat, request.DecisionNumber)))
	seed := int64(binary.BigEndian.Uint64(digest[:8]))
	return uint32(rand.New(rand.NewSource(seed)).Intn(len(request.LegalMoves)))
}

// session plays on one stream until it ends; it reports whether retrying can help.
func session(o options) (retry bool, err error) {
	dial := []grpc.DialOption{grpc.WithInsecure()}
	if o.tls {
		dial = []grpc.DialOption{grpc.WithTransportCredentials(credentials.NewClientTLSFromCert(nil, ""))}
	}
	conn, err := grpc.Dial(o.arbiter, dial...)
	if err != nil {
		return true, err
	}
	defer conn.Close()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+o.token)
	stream, err := pb.NewBotGatewayServiceClient(conn).Connect(ctx)
	if err != nil {
		return true, err
	}
	hello := &pb.Hello{Games: o.games, MaxMatches: uint32(o.maxMatches), Client: client, Batches: true}
	if err := stream.Send(&pb.ConnectRequest{Message: &pb.ConnectRequest_Hello{Hello: hello}}); err != nil {
		return true, err
	}
	games := map[string]string{}
	store := NewGameDataStore(conn)
	batches := false
	for {
		message, err := stream.Recv()
		if err == io.EOF {
			return true, fmt.Errorf("the arbiter closed the stream")
		}
		if err != nil {
			code := status.Code(err)
			return code != codes.Unauthenticated && code != codes.InvalidArgument, err
		}
		switch m := message.Message.(type) {
		case *pb.ConnectResponse_Welcome:
			batches = m.Welcome.Batches
			logf("connected to %s as %s (%s)", o.arbiter, m.Welcome.BotName, m.Welcome.Server)
		case *pb.ConnectResponse_MatchStarted:
			started := m.MatchStarted
			games[started.MatchId] = started.Game
			if o.example {
				if _, err := store.Get(context.Background(), started.Game, started.GameDataDigest); err != nil {
					logf("no game data for %s: %v", started.Game, err)
				}
			}
			logf("match %s %s started: seat %d of %d (%s)", started.MatchId, started.Game,
				started.Seat, started.Players, strings.Join(started.SeatNames, ", "))
		case *pb.ConnectResponse_MatchEnded:
			ended := m.MatchEnded
			game := games[ended.MatchId]
			delete(games, ended.MatchId)
			if ended.Outcome == nil {
				logf("match %s %s voided: %s", ended.MatchId, game, ended.VoidReason)
			} else {
				logf("match %s %s finished: rank %d of %d (scores %v)", ended.MatchId, game,
					ended.Outcome.Ranks[ended.Seat], len(ended.Outcome.Ranks), ended.Outcome.Scores)
			}
		case *pb.ConnectResponse_Refused:
			logf("answer %s refused: %s", m.Refused.RequestId, m.Refused.Reason)
		case *pb.ConnectResponse_Decision:
			answer := decide(o, store, m.Decision)
			if err := stream.Send(&pb.ConnectRequest{Message: &pb.ConnectRequest_Answer{Answer: answer}}); err != nil {
				return true, err
			}
		case *pb.ConnectResponse_Decisions:
			// Requests that were ready together: answered together, in one AnswerBatch.
			answers := make([]*pb.DecisionAnswer, 0, len(m.Decisions.Requests))
			for _, request := range m.Decisions.Requests {
				answers = append(answers, decide(o, store, request))
			}
			if !batches {
				for _, answer := range answers {
					if err := stream.Send(&pb.ConnectRequest{Message: &pb.ConnectRequest_Answer{Answer: answer}}); err != nil {
						return true, err
					}
				}
				continue
			}
			batch := &pb.AnswerBatch{Answers: answers}
			if err := stream.Send(&pb.ConnectRequest{Message: &pb.ConnectRequest_Answers{Answers: batch}}); err != nil {
				return true, err
			}
		}
	}
}

// decide answers one request: by the example strategy with -example (once the game's data is at
// hand) where it has a choice, else by pick.
func decide(o options, store *GameDataStore, request *pb.DecisionRequest) *pb.DecisionAnswer {
	choice := Choice{Index: pick(request), Note: "hashed pick of the position"}
	if o.example {
		if data, err := store.Get(context.Background(), request.Game, ""); err == nil {
			if chosen, ok := example(request, data); ok {
				choice = chosen
			}
		}
	}
	if !o.notes {
		choice.Note = ""
	} else {
		choice.Note = fmt.Sprintf("%s: move %d of %d", choice.Note, choice.Index+1, len(request.LegalMoves))
	}
	if o.verbose {
		logf("match %s seat %d decision %d: move %d of %d", request.MatchId, request.Seat,
			request.DecisionNumber, choice.Index, len(request.LegalMoves))
	}
	answer, err := answerFor(request, choice)
	if err != nil {
		logf("match %s: %v; answering without it", request.MatchId, err)
		answer, _ = answerFor(request, Choice{Index: choice.Index})
	}
	return answer
}

func main() {
	o := parse()
	backoff := 200 * time.Millisecond
	for {
		started := time.Now()
		retry, err := session(o)
		if !retry {
			fmt.Fprintf(os.Stderr, "error: the arbiter at %s refused this bot: %v\n", o.arbiter, err)
			os.Exit(1)
		}
		if time.Since(started) > 10*time.Second {
			backoff = 200 * time.Millisecond
		}
		logf("connection to %s lost (%v); retrying in %s", o.arbiter, err, backoff)
		time.Sleep(backoff)
		if backoff *= 2; backoff > 10*time.Second {
			backoff = 10 * time.Second
		}
	}
}
