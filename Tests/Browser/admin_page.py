"""The admin page in a real browser (headless Chromium through Selenium), run by
AdminPageBrowserTests against a live gateway, and by scripts/admin-screenshot.sh for the
README's screenshot.

Checks what a user sees: the route's card with its snapshot and its last fill, a refresh
from GET /state within a few seconds, no Content-Security-Policy violation in the console,
and (with --purge) the purge button asking for the admin token and the snapshot turning
`retained`. Exit status 0 when every check holds; otherwise 1 and the failed check on stderr.
"""

import argparse
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1000", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))


def route_card(driver, route):
    return driver.find_element(By.CSS_SELECTOR, f'section.route[data-route="{route}"]')


def card_text(wait, route, part=None):
    """The text of the route's card (or of its `part`), read again if a redraw replaced it."""
    def read(driver):
        card = route_card(driver, route)
        return (card.find_element(By.CSS_SELECTOR, part) if part else card).text
    return wait.until(read)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the admin page, e.g. http://127.0.0.1:9090/")
    parser.add_argument("--route", required=True, help="a route that holds a snapshot")
    parser.add_argument("--snapshot", help="the snapshot token the route's card must show")
    parser.add_argument("--token", help="the admin token the purge prompt is answered with")
    parser.add_argument("--purge", action="store_true", help="purge the route through its button")
    parser.add_argument("--screenshot", help="write a PNG of the page here")
    args = parser.parse_args()

    driver = browser()
    # The page redraws its cards on every refresh: an element found just before a redraw is gone
    # when read, and the wait reads it again.
    wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])
    try:
        driver.get(args.url)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'section.route[data-route="{args.route}"] table'))
        text = card_text(wait, args.route)
        if args.snapshot and args.snapshot not in text:
            fail(f"the card of {args.route} does not show snapshot {args.snapshot}:\n{text}")
        if "current" not in text or "fresh" not in text:
            fail(f"the card of {args.route} shows no current, fresh snapshot:\n{text}")
        if "stored" not in card_text(wait, args.route, ".facts"):
            fail(f"the card of {args.route} shows no stored last fill:\n{text}")
        if "Store" not in driver.find_element(By.ID, "store").text:
            fail("no store card")

        # The page reads /state again by itself (every 2 s).
        first = driver.find_element(By.ID, "status").text
        try:
            WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException]).until(
                lambda d: d.find_element(By.ID, "status").text != first)
        except TimeoutException:
            fail(f"the page did not refresh: status stayed '{first}'")
        if not driver.find_element(By.ID, "status").text.startswith("updated"):
            fail("status: " + driver.find_element(By.ID, "status").text)

        if args.screenshot:
            driver.save_screenshot(args.screenshot)

        if args.purge:
            wait.until(lambda d: route_card(d, args.route).find_element(By.CSS_SELECTOR, "button.purge").click() or True)
            if args.token:
                prompt = wait.until(expected_conditions.alert_is_present())
                prompt.send_keys(args.token)
                prompt.accept()
            wait.until(lambda d: d.find_element(By.ID, "note").text == f"Purged {args.route}.")
            wait.until(lambda d: "retained" in route_card(d, args.route).text)

        violations = [entry["message"] for entry in driver.get_log("browser")
                      if "Content Security Policy" in entry["message"] or entry["level"] == "SEVERE"]
        # The page's own favicon is `data:`; Chromium may still ask for /favicon.ico (a 404).
        violations = [message for message in violations if "favicon.ico" not in message]
        if violations:
            fail("console errors:\n" + "\n".join(violations))
        print(f"ok: {args.route} shown, refreshed" + (", purged" if args.purge else ""))
    finally:
        driver.quit()


def fail(message):
    print(message, file=sys.stderr)
    raise SystemExit(1)


if __name__ == "__main__":
    main()
