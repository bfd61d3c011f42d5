from blood_companion.cli.entry import main

raise SystemExit(main())
