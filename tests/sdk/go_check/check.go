// Reads lines "request <base64 ConnectResponse>" or "data <base64 GetGameDataResponse>" on
// stdin and prints, per line, what the Go client makes of it as JSON: a request's observation
// and legal moves (protojson, proto field names), or a game's data and its indexed tables with
// their keys. It is built with the client's gamedata.go and gamedata_tables.go, so a table's
// keys are printed only when Entry and the table's generated method both find each entry.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "premiere/v1"
)

var marshal = protojson.MarshalOptions{UseProtoNames: true}

func raw(message proto.Message) json.RawMessage {
	out, err := marshal.Marshal(message)
	if err != nil {
		panic(err)
	}
	return out
}

func camel(snake string) string {
	parts := strings.Split(snake, "_")
	for i, part := range parts {
		parts[i] = strings.ToUpper(part[:1]) + part[1:]
	}
	return strings.Join(parts, "")
}

// tables is, per indexed table, its keys in order; or what went wrong looking one up.
func tables(data *GameData) map[string]interface{} {
	message := data.Raw.ProtoReflect()
	field := message.WhichOneof(message.Descriptor().Oneofs().ByName("game_data"))
	own := message.Get(field).Message()
	prefix := camel(string(field.Name()))
	found := map[string]interface{}{}
	for _, table := range data.Tables() {
		descriptor := own.Descriptor().Fields().ByName(protoreflect.Name(table))
		key := descriptor.Message().Fields().ByName("number")
		if key == nil {
			key = descriptor.Message().Fields().ByName("id")
		}
		method := reflect.ValueOf(data).MethodByName(prefix + camel(table))
		keys := []interface{}{}
		list := own.Get(descriptor).List()
		for i := 0; i < list.Len(); i++ {
			entry := list.Get(i).Message().Interface()
			value := list.Get(i).Message().Get(key).Interface()
			if data.Entry(table, value) != entry {
				found[table] = fmt.Sprintf("Entry(%q, %v) is not the entry of that key", table, value)
				break
			}
			if !method.IsValid() {
				found[table] = fmt.Sprintf("no method %s%s", prefix, camel(table))
				break
			}
			typed := method.Call([]reflect.Value{reflect.ValueOf(value)})[0].Interface()
			if typed != entry {
				found[table] = fmt.Sprintf("%s%s(%v) is not the entry of that key", prefix, camel(table), value)
				break
			}
			keys = append(keys, value)
		}
		if _, failed := found[table]; !failed {
			found[table] = keys
		}
	}
	return found
}

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	out := json.NewEncoder(os.Stdout)
	for scanner.Scan() {
		kind, encoded, _ := strings.Cut(scanner.Text(), " ")
		bytes, err := base64.StdEncoding.DecodeString(encoded)
		if err != nil {
			panic(err)
		}
		if kind == "request" {
			var response pb.ConnectResponse
			if err := proto.Unmarshal(bytes, &response); err != nil {
				panic(err)
			}
			request := response.GetDecision()
			moves := []json.RawMessage{}
			for _, move := range request.LegalMoves {
				moves = append(moves, raw(move))
			}
			out.Encode(map[string]interface{}{"observation": raw(request.Observation), "legal_moves": moves})
			continue
		}
		var reply pb.GetGameDataResponse
		if err := proto.Unmarshal(bytes, &reply); err != nil {
			panic(err)
		}
		data := NewGameData(reply.Data)
		out.Encode(map[string]interface{}{"data": raw(reply.Data), "tables": tables(data)})
	}
	if err := scanner.Err(); err != nil {
		panic(err)
	}
}
