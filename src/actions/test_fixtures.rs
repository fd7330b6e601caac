//! Test fixtures: byte-exact outputs of DealerV2 4.3.3 (upstream regression references) and of
//! /usr/games/dealer (captured with fixed seeds). The texts live in `tests/fixtures/actions/`
//! (one file per constant, see `tests/fixtures/README.md`); this module only names them.

/// `you_hold_s271.ref` (first 13 deals).
pub const V2_YOU_HOLD: &str = include_str!("../../tests/fixtures/actions/v2_you_hold.txt");
/// `Demo_s79.ref`.
pub const V2_DEMO_PRINTEW: &str = include_str!("../../tests/fixtures/actions/v2_demo_printew.txt");
/// `prtCompass_s193.ref`.
pub const V2_PRT_COMPASS: &str = include_str!("../../tests/fixtures/actions/v2_prt_compass.txt");
/// `notrump_s167.ref`.
pub const V2_NOTRUMP_PAGES: &str = include_str!("../../tests/fixtures/actions/v2_notrump_pages.txt");
/// `2nt_Demo_s11.ref`.
pub const V2_ONELINE: &str = include_str!("../../tests/fixtures/actions/v2_oneline.txt");
/// `pbn_s179.ref`.
pub const V2_PBN: &str = include_str!("../../tests/fixtures/actions/v2_pbn.txt");
/// `Startboard_s347.ref`.
pub const V2_STARTBOARD: &str = include_str!("../../tests/fixtures/actions/v2_startboard.txt");
/// `freqEx_s137.ref`.
pub const V2_FREQ_EX: &str = include_str!("../../tests/fixtures/actions/v2_freq_ex.txt");
/// `freqEx2D_s139.ref`.
pub const V2_FREQ_2D: &str = include_str!("../../tests/fixtures/actions/v2_freq_2d.txt");
/// `controls_s37.ref`.
pub const V2_CONTROLS: &str = include_str!("../../tests/fixtures/actions/v2_controls.txt");
/// `BktFreq_s19.ref`.
pub const V2_BKTFREQ: &str = include_str!("../../tests/fixtures/actions/v2_bktfreq.txt");
/// `1C_openerClubLen_s7.ref`.
pub const V2_CLUB_LEN: &str = include_str!("../../tests/fixtures/actions/v2_club_len.txt");
/// `12_14NT_Hcp_Dist_s3.ref`.
pub const V2_NT_HCP: &str = include_str!("../../tests/fixtures/actions/v2_nt_hcp.txt");
/// `junkstayman_s151.ref`.
pub const V2_JUNKSTAYMAN: &str = include_str!("../../tests/fixtures/actions/v2_junkstayman.txt");
/// `export_s127.ref`.
pub const V2_EXPORT: &str = include_str!("../../tests/fixtures/actions/v2_export.txt");
/// `printrpt_show_s191.ref`.
pub const V2_PRINTRPT: &str = include_str!("../../tests/fixtures/actions/v2_printrpt.txt");
/// `CTLs_vs_LTC_s53.ref`.
pub const V2_CTLS_LTC: &str = include_str!("../../tests/fixtures/actions/v2_ctls_ltc.txt");
/// `p1.out`.
pub const CLASSIC_PRINTERS: &str = include_str!("../../tests/fixtures/actions/classic_printers.txt");
/// `pbn2.out`.
pub const CLASSIC_PBN2: &str = include_str!("../../tests/fixtures/actions/classic_pbn2.txt");
/// `pbn3.out`.
pub const CLASSIC_PBN3: &str = include_str!("../../tests/fixtures/actions/classic_pbn3.txt");
/// `pr6.out`.
pub const CLASSIC_PAGES: &str = include_str!("../../tests/fixtures/actions/classic_pages.txt");
/// `avg.out`.
pub const CLASSIC_AVERAGE: &str = include_str!("../../tests/fixtures/actions/classic_average.txt");
/// `avg0.out`.
pub const CLASSIC_AVERAGE_EMPTY: &str = include_str!("../../tests/fixtures/actions/classic_average_empty.txt");
/// `freq.out`.
pub const CLASSIC_FREQ: &str = include_str!("../../tests/fixtures/actions/classic_freq.txt");
/// `fr1.out`.
pub const CLASSIC_FREQ_ONE_ROW: &str = include_str!("../../tests/fixtures/actions/classic_freq_one_row.txt");
/// `finv2.out`.
pub const CLASSIC_FREQ_NO_COLUMNS: &str = include_str!("../../tests/fixtures/actions/classic_freq_no_columns.txt");
/// `fe.out`.
pub const CLASSIC_FREQ_EMPTY_RANGE: &str = include_str!("../../tests/fixtures/actions/classic_freq_empty_range.txt");
/// `fdd.out`.
pub const CLASSIC_FREQ_NEGATIVE_DIMS: &str =
    include_str!("../../tests/fixtures/actions/classic_freq_negative_dims.txt");
