"""The rules of U-Boat Leader by section of the text: setup (Preparación), strategic, operations, missions,
contact, tactical, escorts, attack, refit, campaign; crew holds the card's stress bands and abilities."""
