{ boards.pas -- the Pascal binding (bindings/pascal/Dealer.pas) in a practice-server loop: load
  a script once, then hand out deals as PBN boards, exactly as examples-c/embed.c prints them.

    boards [SEED [COUNT [SCRIPT_FILE]]]   defaults: seed 42, 4 boards, the 1NT script below
    boards --capture SEED                 a whole run ("produce 3 / action printoneline", glibc
                                          generator) captured through SetOutput, then
                                          "report: generated=G produced=P seed=S"
  Errors print "boards: <step>: <libdealer's message>" on stderr; the exit status is 1.

  Build and run from the top of the repository (after `make`; Delphi: add bindings/pascal to
  the project's search path):
    mkdir -p /tmp/boards
    fpc -Mdelphi -Fubindings/pascal -Fltarget/lib -FE/tmp/boards bindings/pascal/examples/boards.pas
    LD_LIBRARY_PATH=target/lib /tmp/boards/boards 1 6 }
program boards;

{$IFDEF FPC}{$MODE DELPHI}{$H+}{$ENDIF}
{$IFDEF MSWINDOWS}{$APPTYPE CONSOLE}{$ENDIF}

uses
  SysUtils, Dealer;

const
  { North opens 1NT: 15-17 points, balanced (the same text as embed.c). }
  OneNotrump = 'condition hcp(north) >= 15 && hcp(north) <= 17'#10 +
    '  && shape(north, any 4333 + any 4432 + any 5332)'#10;
  { Board vulnerability by (board - 1) mod 16, in PBN's words. }
  Vulnerable: array[0..15] of string = ('None', 'NS', 'EW', 'All', 'NS', 'EW', 'All', 'None',
    'EW', 'All', 'None', 'NS', 'All', 'None', 'NS', 'EW');
  Seats = 'NESW';

var
  Session: TDealerSession;
  Report: TDealerRunReport;
  Deal: TDealerDeal;
  Step: string;
  Board, Count: Int64;
begin
  Step := 'session';
  try
    Session := TDealerSession.Create;
    try
      if (ParamCount = 2) and (ParamStr(1) = '--capture') then
      begin
        Step := 'run';
        Session.SetSeed(StrToInt64(ParamStr(2)));
        Session.SetGenerator(DEALER_GENERATOR_GLIBC);
        Session.LoadScript('produce 3'#10'action printoneline'#10);
        Session.SetOutput(DEALER_STREAM_OUTPUT);  { into Session.OutputText[...] }
        Report := Session.Run;
        Write(Session.OutputText[DEALER_STREAM_OUTPUT]);
        Write(Format('report: generated=%d produced=%d seed=%u'#10,
          [Report.generated, Report.produced, Report.seed]));
        Exit;
      end;
      Step := 'seed';
      if ParamCount > 0 then Session.SetSeed(StrToInt64(ParamStr(1))) else Session.SetSeed(42);
      if ParamCount > 1 then Count := StrToInt64(ParamStr(2)) else Count := 4;
      Step := 'script';
      if ParamCount > 2 then Session.LoadScriptFile(ParamStr(3)) else Session.LoadScript(OneNotrump);
      Step := 'next deal';
      Board := 1;
      { NextDeal is False when the script's limits are reached. }
      while (Board <= Count) and Session.NextDeal(Deal) do
      begin
        Write(Format('[Board "%d"]'#10'[Dealer "%s"]'#10'[Vulnerable "%s"]'#10'[Deal "%s"]'#10#10,
          [Board, Seats[Integer((Board - 1) mod 4) + 1], Vulnerable[Integer((Board - 1) mod 16)],
           DealToPbn(Deal)]));
        Inc(Board);
      end;
    finally
      Session.Free;
    end;
  except
    on E: EDealerError do
    begin
      Write(ErrOutput, 'boards: ', Step, ': ', E.Message, #10);
      ExitCode := 1;
    end;
  end;
end.
