// The account corner of every page's top bar: *Log in* and *Sign up* for a guest (one dialog
// each), or the player's name (their profile), *Your games*, *Log out* and *Log out
// everywhere*. Signing up or logging in sends the seat tokens this browser holds, so a guest
// keeps the tables they were playing (api.js). The session is an HttpOnly cookie: no script
// here ever sees it.

import { ApiError, currentAccount, enter, leave } from "./api.js";
import { dialog } from "./dialog.js";
import { h, uid } from "./dom.js";
import { notice } from "./notices.js";

/** Draw the corner into the top bar's navigation; returns the account (or null). */
export async function accountCorner() {
  const nav = document.querySelector("header.top nav");
  if (!nav) return null;
  let box = nav.querySelector(".account");
  if (!box) {
    box = h("div", { class: "account" });
    nav.append(box);
  }
  let account = null;
  try {
    account = await currentAccount();
  } catch {
    box.replaceChildren(); // the server is away: the table page says so; nothing to offer here
    return null;
  }
  if (!account) {
    box.replaceChildren(
      h("button", { type: "button", class: "link", id: "login", onclick: () => enterDialog("login") }, "Log in"),
      h("button", { type: "button", class: "link", id: "signup", onclick: () => enterDialog("signup") }, "Sign up"));
    return null;
  }
  const out = async (everywhere) => {
    try {
      await leave(everywhere);
    } catch (error) {
      notice(`Could not log out: ${error.message}`, "error");
      return;
    }
    location.reload();
  };
  box.replaceChildren(
    h("a", { href: "/me", id: "your-games" }, "Your games"),
    h("a", { href: `/players/${encodeURIComponent(account.name)}`, class: "account-name", title: "your profile" }, account.name),
    h("button", { type: "button", class: "link", id: "logout", onclick: () => out(false) }, "Log out"),
    h("button", { type: "button", class: "link", id: "logout-everywhere", title: "end every session of this account, on every device", onclick: () => out(true) }, "Log out everywhere"));
  return account;
}

/** The sign-up or log-in form, in a dialog. */
export function enterDialog(how) {
  const signup = how === "signup";
  const nameId = uid("name");
  const passId = uid("password");
  const helpId = uid("help");
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const name = h("input", { id: nameId, name: "name", type: "text", required: true, autocomplete: "username", maxlength: 24, "aria-describedby": signup ? helpId : null });
  const password = h("input", { id: passId, name: "password", type: "password", required: true, autocomplete: signup ? "new-password" : "current-password", minlength: signup ? 8 : null });
  const submit = h("button", { type: "submit", class: "primary" }, signup ? "Sign up" : "Log in");
  const form = h("form", { class: "account-form", "data-how": how },
    h("div", { class: "field" }, h("label", { for: nameId }, "Name"), name),
    h("div", { class: "field" }, h("label", { for: passId }, "Password"), password),
    signup ? h("p", { class: "muted help", id: helpId }, "A name of 2 to 24 letters, digits and spaces; a password of at least 8 characters. The tables this browser plays are kept in your account.") : null,
    error,
    h("div", { class: "buttons" }, submit,
      h("button", { type: "button", class: "link", onclick: () => {
        d.close();
        enterDialog(signup ? "login" : "signup");
      } }, signup ? "I have an account: log in" : "New here? Sign up")));
  const d = dialog(signup ? "Sign up" : "Log in", form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.hidden = true;
    try {
      const answer = await enter(how, name.value.trim(), password.value);
      d.close();
      const kept = answer.kept.length;
      notice(`${signup ? "Welcome" : "Welcome back"}, ${answer.account.name}.${kept ? ` ${kept} seat${kept > 1 ? "s" : ""} kept in your account.` : ""}`);
      location.reload();
    } catch (failure) {
      // nothing typed is lost: the form stays, with the reason beside it
      error.textContent = failure instanceof ApiError && failure.status === 429 ? `Too many attempts: ${failure.message}` : failure.message;
      error.hidden = false;
      submit.disabled = false;
      (failure.status === 401 ? password : name).focus();
    }
  });
  return d;
}
