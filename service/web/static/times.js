// times in the reader's own zone, saying which zone ("26 Nov, 15:01 CET"): the zone the
// player chose in their preferences (the body's data-zone), else the browser's; without
// script the page says its zone itself (UTC, or the player's). What follows a time in brackets
// ("(in 2 days)") is kept. A file of its own so the pages' Content-Security-Policy can
// forbid inline scripts.
var shown = {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
             timeZoneName: "short"};
if (document.body.dataset.zone) {
  try {
    new Date().toLocaleString([], {timeZone: document.body.dataset.zone});
    shown.timeZone = document.body.dataset.zone;
  } catch (e) { /* a zone this browser does not know: its own */ }
}
document.querySelectorAll("time[datetime]").forEach(function (t) {
  var d = new Date(t.getAttribute("datetime"));
  if (isNaN(d)) return;
  var after = (t.textContent.match(/\s\([^()]*\)\s*$/) || [""])[0];
  t.textContent = d.toLocaleString([], shown) + after;
  t.title = d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
});
