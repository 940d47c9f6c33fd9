// The home page's events section: shown once there is an event, refreshed with the page.

import { $, apiAll, fill } from "./common.js";
import { eventsTable } from "./event_list.js";

async function refresh() {
  try {
    const { events } = await apiAll("/api/events", "events");
    $("events-section").hidden = events.length === 0;
    fill($("events-list"), eventsTable(events.slice(0, 10)));
    document.body.dataset.events = String(events.length);
  } catch {
    // The leaderboard's own status line tells of an unreachable server.
  }
  setTimeout(refresh, 10000);
}

refresh();
