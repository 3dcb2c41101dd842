"""Drives Debian's python3-simplenote (2.1.4) against the fake Simperium server named on the
command line, and prints one JSON object of observations for the vitest test to judge.
argv: base_url app_id api_key username password page_size"""
import json
import sys

import simplenote
import simplenote.simplenote as sn

base, app, key, user, password, page = sys.argv[1:7]
sn.AUTH_URL = "%s/1/%s/authorize/" % (base, app)
sn.DATA_URL = "%s/1/%s/note" % (base, app)
sn.API_KEY = key
sn.NOTE_FETCH_LENGTH = int(page)

out = {}
try:
    simplenote.Simplenote(user, "wrong-" + password).authenticate(user, "wrong-" + password)
    out["bad_login"] = "accepted"
except sn.SimplenoteLoginFailed:
    out["bad_login"] = "refused"

client = simplenote.Simplenote(user, password)
out["token_length"] = len(client.get_token())

keys = []
for i in range(25):
    note, status = client.add_note("python note %d\nbody %d" % (i, i))
    assert status == 0, note
    keys.append(note["key"])
out["added"] = len(keys)
out["first_version"] = note["version"]

listing, status = client.get_note_list(data=True)
assert status == 0, listing
out["listed"] = len(listing)
out["listed_distinct"] = len(set(n["key"] for n in listing))
out["listed_have_content"] = all("content" in n for n in listing)
out["current"] = client.current
ids_only, status = client.get_note_list(data=False)
out["ids_only_listed"] = len(ids_only)

got, status = client.get_note(keys[0])
assert status == 0, got
out["got_content"] = got["content"]
out["got_version"] = got["version"]

got["content"] = "python note 0 edited\nnew body"
updated, status = client.update_note(got)
assert status == 0, updated
out["updated_version"] = updated["version"]
out["updated_content"] = updated["content"]

old, status = client.get_note(keys[0], 1)
out["old_version_content"] = old["content"] if status == 0 else None

since_list, status = client.get_note_list(data=True, since=out["current"])
out["since_listed"] = [n["key"] for n in since_list]

trashed, status = client.trash_note(keys[1])
out["trashed"] = status == 0 and trashed["deleted"] in (True, 1)
listing, status = client.get_note_list(data=True)
out["listed_after_trash"] = len(listing)

result, status = client.delete_note(keys[1])
out["delete_status"] = status
gone, status = client.get_note(keys[1])
out["deleted_get_status"] = status
listing, status = client.get_note_list(data=False)
out["listed_after_delete"] = len(listing)

print(json.dumps(out))
