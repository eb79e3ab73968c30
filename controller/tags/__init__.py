"""Tags and staff: which RFID tag is which card, member or staff key, and the staff desk.

``registry`` maps tag ids to cards of a deck; ``members`` maps member tags
to nicknames; ``enrollment`` teaches the registry a new deck; ``staff_desk``
is the desk staff open with their tag; ``staff_pin`` guards it with a PIN.
"""
