// the replay's keys: n or → next, p or ← previous (the links work without script)
document.addEventListener("keydown", function (e) {
  if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
  var id = (e.key === "n" || e.key === "ArrowRight") ? "next" : (e.key === "p" || e.key === "ArrowLeft") ? "prev" : null;
  var link = id && document.getElementById(id);
  if (link) { e.preventDefault(); window.location = link.href; }
});
