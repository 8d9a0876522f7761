# -*- Python -*-
# The GoogleTest binaries, run by lit so that one command runs every test.
import os

import lit.formats

config.name = "SOFTMAX-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.softmax_obj_root, "test", "unit")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
# As in test/lit.cfg.py: every pass verified, no disk cache unless a test names a directory.
config.environment["SOFTMAX_VERIFY_PASSES"] = "1"
config.environment["SOFTMAX_CACHE_DIR"] = "off"
