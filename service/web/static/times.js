// history times in the reader's own zone (the page says UTC without script); a file of its
// own so the pages' Content-Security-Policy can forbid inline scripts
document.querySelectorAll("time[datetime]").forEach(function (t) {
  var d = new Date(t.getAttribute("datetime"));
  if (!isNaN(d)) t.textContent = d.toLocaleString([], {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"});
});
