// Shared by every view: the JSON API helper, the message line, tabs, and small DOM helpers.
"use strict";

const zs = {};

// fetch JSON from the API; on an error answer (not 2xx: {error}) show it in the message line and throw.
// options.quiet (a background poll): neither clear nor set the message line, only throw
zs.api = async function (path, options = {}) {
  const quiet = Boolean(options.quiet);
  const init = Object.assign({ headers: {} }, options);
  delete init.quiet;
  if (init.body !== undefined && typeof init.body !== "string" && !(init.body instanceof Blob)) {
    init.body = JSON.stringify(init.body);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (!quiet) zs.showError("the server does not answer (" + e.message + ")");
    throw e;
  }
  let data = null, parsed = true;
  const text = await response.text();
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text.slice(0, 200) }; parsed = false; }
  // an error is a status that is not 2xx (every error of the API) or an answer that is not JSON;
  // a 200 may hold an "error" field of its own (a failed run's view: GET /api/runs/ID)
  if (!response.ok || !parsed) {
    const message = (data && data.error) || ("HTTP " + response.status);
    if (!quiet) zs.showError(message);
    throw new Error(message);
  }
  if (!quiet) zs.clearMessage();
  return data;
};

zs.showError = function (text) {
  const box = document.getElementById("message");
  box.textContent = "Error: " + text;
  box.className = "error";
  box.hidden = false;
};

zs.showInfo = function (text) {
  const box = document.getElementById("message");
  box.textContent = text;
  box.className = "info";
  box.hidden = false;
};

zs.clearMessage = function () {
  const box = document.getElementById("message");
  box.hidden = true;
  box.textContent = "";
};

// el("div", {class: "x", id: "y", onclick: f}, child, "text", ...)
zs.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

zs.fmt = function (x, digits = 4) {
  if (x === null || x === undefined) return "";
  if (typeof x !== "number") return String(x);
  if (x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e5)) return x.toExponential(digits - 1);
  return x.toFixed(digits);
};

// views register here: zs.views.solve = {show() {...}}
zs.views = {};

zs.showView = function (name) {
  for (const button of document.querySelectorAll("#tabs button")) {
    button.classList.toggle("active", button.dataset.view === name);
  }
  for (const section of document.querySelectorAll("main > section.view")) {
    section.hidden = section.id !== "view-" + name;
  }
  const view = zs.views[name];
  if (view && view.show) view.show();
};

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#tabs button")) {
    button.addEventListener("click", () => zs.showView(button.dataset.view));
  }
  for (const view of Object.values(zs.views)) if (view.init) view.init();
  zs.showView("solve");
});
