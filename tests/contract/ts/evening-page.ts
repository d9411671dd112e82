// An evening page as a club website would write it against the generated types: the
// competition's heading, its standings and the boards of one of its rounds. It is type-checked with
// `tsc --strict --noEmit` (scripts/contract-test.sh); the checks below only compile when the
// document gives the value lists as enums, the scores as numbers and a competition's params
// typed per kind.
import type { components, operations } from "./generated/api";

type Standings = components["schemas"]["StandingsView"];
type Round = components["schemas"]["RoundView"];
type Game = components["schemas"]["GameView"];
type ResultCode = components["schemas"]["ResultCode"];
type Competition = components["schemas"]["CompetitionView"];

// Every result code has a text: adding a code to the document breaks this page's build.
const resultText: Record<ResultCode, string> = {
  "1-0": "1-0",
  "0-1": "0-1",
  "1/2-1/2": "½-½",
  "½-½": "½-½",
  "2-0": "2-0",
  "0-2": "0-2",
  "1-1": "1-1",
  "1+-1-": "1+ 1-",
  "1--1+": "1- 1+",
  "0-0": "0-0",
  "+/-": "+ -",
  "-/+": "- +",
  "-/-": "- -",
  bye: "bye",
};

const roundStatusText: Record<Round["status"], string> = {
  planned: "planned",
  paired: "paired",
  published: "published",
  completed: "completed",
};

function board(g: Game): string {
  const white = g.white?.name ?? "bye";
  const black = g.black?.name ?? "bye";
  const result = g.result ? resultText[g.result] : "";
  return `${g.board}. ${white} - ${black} ${result}`.trimEnd();
}

function table(s: Standings): string[] {
  switch (s.kind) {
    case "keizer":
      return (s.keizer?.rows ?? []).map((r) => `${r.rank}. ${r.name} ${r.score}`);
    case "swiss":
      return (s.swiss?.rows ?? []).map((r) => {
        const points: number | undefined = r.values["PTS"];
        return `${r.place}. ${r.name} ${points ?? ""}`;
      });
    case "round_robin":
      return (s.round_robin?.rows ?? []).map((r) => `${r.place}. ${r.name} ${r.points}`);
    default: {
      // only compiles while `kind` is an enum of the three
      const unknown: never = s.kind;
      return [String(unknown)];
    }
  }
}

// Narrowing on `kind` gives the kind's typed params.
function heading(c: Competition): string {
  switch (c.kind) {
    case "keizer": {
      const top: number | undefined = c.params.top_value;
      return `${c.name} (Keizer, rank 1 is worth ${top ?? 60})`;
    }
    case "swiss": {
      const blitz = c.params.blitz;
      if (blitz === undefined) {
        return `${c.name} (Swiss)`;
      }
      const rounds: number = blitz.max_rounds;
      return `${c.name} (blitz on ${blitz.date}, at most ${rounds} rounds)`;
    }
    case "round_robin": {
      const prizes: number[] = c.params.prize_money ?? [];
      return `${c.name} (round robin, ${prizes.length} prizes)`;
    }
    case "knockout":
      return `${c.name} (${c.params.draw?.groups.length ?? 0} playoff groups)`;
    default: {
      // only compiles while every kind has its variant
      const unknown: never = c;
      return String(unknown);
    }
  }
}

async function get<T>(base: string, path: string): Promise<T> {
  const res = await fetch(base + path);
  if (!res.ok) {
    throw new Error(`${path}: ${res.status}`);
  }
  return (await res.json()) as T;
}

export async function eveningPage(base: string, competition: number, round: number): Promise<string> {
  const c = await get<Competition>(base, `/api/v1/competitions/${competition}`);
  const standings = await get<Standings>(base, `/api/v1/competitions/${competition}/standings`);
  const r = await get<Round>(base, `/api/v1/competitions/${competition}/rounds/${round}`);
  return [
    heading(c),
    `Round ${r.number} (${roundStatusText[r.status]})`,
    ...r.games.map(board),
    "",
    ...table(standings),
  ].join("\n");
}

type StreamQuery = NonNullable<operations["get_stream"]["parameters"]["query"]>;
type LoggedEvent = components["schemas"]["LoggedEvent"];

// The results entered after `after`, as a long poll of the stream: it ends after 50 events
// or 25 seconds, and its text is parsed message by message (`id:`, `event:`, `data:`).
export async function resultsAfter(base: string, competition: number, after: string): Promise<LoggedEvent[]> {
  const query: StreamQuery = {
    competition,
    after,
    types: ["result.entered"],
    max_events: 50,
    max_seconds: 25,
  };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      params.append(key, String(v));
    }
  }
  const res = await fetch(`${base}/api/v1/stream?${params}`);
  const text = await res.text();
  return text
    .split("\n\n")
    .flatMap((block) => block.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => JSON.parse(line.slice("data: ".length)) as LoggedEvent)
    .filter((e) => e.type === "result.entered");
}
