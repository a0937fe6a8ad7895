/** The dashboard's whole stylesheet, inlined in every page (no build step, no extra request). */
export const STYLESHEET = `
:root{--bg:#f6f7f9;--panel:#fff;--text:#1b1f24;--muted:#57606a;--line:#d8dee4;--accent:#0b5cad;--accent-ink:#fff;
--danger:#b42318;--ok:#1a7f37;--warn-bg:#fff8e1;--warn-line:#e0b000;--live:#1a7f37;--test:#8250df;--focus:#ffbf47;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--text);background:var(--bg)}
*{box-sizing:border-box}
body{margin:0;line-height:1.5;font-size:15px}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--panel);padding:.5rem 1rem}
.skip:focus{left:1rem;z-index:10}
header.top{background:#10243e;color:#fff;display:flex;align-items:center;gap:1.5rem;padding:.6rem 1.5rem;flex-wrap:wrap}
header.top .brand{font-weight:700;font-size:1.1rem;color:#fff;text-decoration:none;letter-spacing:.01em}
header.top nav ul{list-style:none;display:flex;gap:.25rem;margin:0;padding:0;flex-wrap:wrap}
header.top nav a{color:#dbe7f5;text-decoration:none;padding:.35rem .7rem;border-radius:6px;display:block}
header.top nav a:hover{background:#1d3a5f;color:#fff}
header.top nav a[aria-current=page]{background:#fff;color:#10243e;font-weight:600}
header.top form{margin-left:auto}
header.top button{background:transparent;color:#fff;border:1px solid #6c84a3}
header.top button:hover{background:#1d3a5f}
main{max-width:1240px;margin:0 auto;padding:1.5rem}
h1{font-size:1.6rem;margin:.2rem 0 1rem}
h2{font-size:1.2rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:0 0 .5rem}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1.25rem;margin-bottom:1.25rem;box-shadow:0 1px 2px rgba(16,36,62,.05)}
.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.55rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
thead th{font-size:.78rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600;white-space:nowrap}
tbody th{font-weight:600}
td code,td time{white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:hover{background:#f9fafb}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.75rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;border:1px solid}
.badge.live{color:var(--live);border-color:var(--live);background:#e9f7ee}
.badge.test{color:var(--test);border-color:var(--test);background:#f4effc}
.badge.on{color:var(--ok);border-color:var(--ok);background:#e9f7ee}
.badge.off{color:var(--muted);border-color:var(--line);background:#f3f4f6}
.domains{display:flex;flex-wrap:wrap;gap:.25rem}
.domains code{background:#eef2f6;padding:.05rem .35rem;border-radius:4px}
form.stack{display:grid;gap:.9rem;max-width:640px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:.9rem 1.25rem}
label{font-weight:600;display:block;margin-bottom:.25rem}
.hint{font-size:.85rem;color:var(--muted);margin:.2rem 0 0}
input[type=text],input[type=password],input[type=number],select{width:100%;padding:.5rem .6rem;border:1px solid #8c959f;border-radius:6px;font:inherit;background:#fff;color:inherit}
input[aria-invalid=true]{border-color:var(--danger);box-shadow:0 0 0 1px var(--danger)}
fieldset{border:1px solid var(--line);border-radius:6px;padding:.5rem .8rem}
legend{font-weight:600;padding:0 .25rem}
fieldset label{display:inline-flex;gap:.35rem;font-weight:400;margin-right:1rem}
button,.button{font:inherit;font-weight:600;padding:.45rem 1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none;display:inline-block}
button:hover,.button:hover{filter:brightness(1.1)}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger,.button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
.actions{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
td .actions{gap:.15rem .6rem}
.table-wrap{overflow-x:auto}
form.actions select{width:auto;min-width:16rem}
form.actions label{margin:0}
.field-error{color:var(--danger);font-size:.88rem;margin:.25rem 0 0}
.field-error ul{margin:.1rem 0;padding-left:1.2rem}
.alert{border-radius:8px;padding:.8rem 1rem;margin-bottom:1.25rem;border:1px solid}
.alert.error{background:#fdecea;border-color:#f1aeb5;color:#7a1c12}
.alert.notice{background:#e9f7ee;border-color:#9fd8b0;color:#14532d}
.newkey{background:var(--warn-bg);border:2px solid var(--warn-line);border-radius:10px;padding:1rem 1.25rem;margin-bottom:1.25rem}
.newkey .keyline{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:.5rem 0}
.newkey input{font-family:ui-monospace,Menlo,Consolas,monospace;max-width:520px;background:#fff}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:1rem;margin-bottom:1.25rem}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1rem}
.card .value{font-size:1.6rem;font-weight:700;font-variant-numeric:tabular-nums}
.card .label{color:var(--muted);font-size:.85rem}
.card.current{border:2px solid var(--accent)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1.25rem}
figure{margin:0}
figcaption{font-weight:600;margin-bottom:.35rem}
svg.chart{width:100%;height:auto;display:block}
details summary{cursor:pointer;color:var(--accent);margin-top:.4rem}
details table{font-size:.85rem}
.signin{max-width:420px;margin:8vh auto}
.empty{padding:1rem;text-align:center;color:var(--muted)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
