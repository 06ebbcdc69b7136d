// times in the reader's own zone, saying which zone ("26 Nov, 15:01 CET"); without script
// the page says its zone itself (UTC, or the player's). What follows a time in brackets
// ("(in 2 days)") is kept. A file of its own so the pages' Content-Security-Policy can
// forbid inline scripts.
document.querySelectorAll("time[datetime]").forEach(function (t) {
  var d = new Date(t.getAttribute("datetime"));
  if (isNaN(d)) return;
  var after = (t.textContent.match(/\s\([^()]*\)\s*$/) || [""])[0];
  t.textContent = d.toLocaleString([], {day: "numeric", month: "short", hour: "2-digit",
                                        minute: "2-digit", timeZoneName: "short"}) + after;
  t.title = d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
});
