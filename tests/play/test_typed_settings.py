"""The use cases read the typed settings, each at the default config/ documents for it."""
from config import Settings
from service.play.services import typed


def test_a_setting_left_out_takes_its_documented_default():
    settings = typed({"TURNPOST_DATABASE_URL": "sqlite://"})
    assert settings.BOT_DELAY_SECONDS == 3 == Settings().BOT_DELAY_SECONDS
    assert settings.VACATION_DAYS == Settings().VACATION_DAYS
    assert settings.DATABASE_URL == "sqlite://"


def test_the_services_carry_the_settings_they_were_built_from(services):
    assert isinstance(services.settings, Settings)
    assert services.settings.BOT_DELAY_SECONDS == 0      # the tests' setting, not a fallback


def test_a_setting_given_as_text_is_read_as_the_environment_would_read_it():
    # a test's or an app's overrides are often text ("false", "5"): "false" must not be a
    # true value, nor "5" a string, in the typed settings the use cases read
    s = typed({"TURNPOST_AUTO_VACATION": "false", "TURNPOST_VACATION_DAYS": "5",
               "TURNPOST_BASE_URL": "http://127.0.0.1:5077"})
    assert s.AUTO_VACATION is False and s.VACATION_DAYS == 5
    assert s.BASE_URL == "http://127.0.0.1:5077"
