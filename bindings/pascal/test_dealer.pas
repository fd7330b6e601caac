{ test_dealer.pas -- tests of the Dealer unit (run by tests/bindings_pascal.sh).

  Usage: test_dealer LAYOUT_FILE SCRIPT_FILE SEED CAPTURE_OUT
    LAYOUT_FILE  lines "name value" from a C program: sizeof of each struct, offsetof of
                 each field (name struct.field)
    SCRIPT_FILE  the capture script; its output with seed SEED goes to CAPTURE_OUT
  Prints "ok: NAME" / "FAIL: NAME" and "N passed, M failed"; exit status 1 on failure. }
program test_dealer;

{$IFDEF FPC}{$MODE DELPHI}{$H+}{$ENDIF}

uses
  SysUtils, Classes, Dealer;

var
  Passed, Failed: Integer;
  Layout: TStringList;

procedure Check(Cond: Boolean; const Name: string; const Detail: string = '');
begin
  if Cond then
  begin
    WriteLn('ok: ', Name);
    Inc(Passed);
  end
  else
  begin
    if Detail <> '' then
      WriteLn('FAIL: ', Name, ' (', Detail, ')')
    else
      WriteLn('FAIL: ', Name);
    Inc(Failed);
  end;
end;

procedure CheckLayout(const Name: string; Got: NativeUInt);
var
  Want: string;
begin
  Want := Layout.Values[Name];
  Check((Want <> '') and (StrToIntDef(Want, -1) = Integer(Got)),
    'layout ' + Name, Format('Pascal %d, C %s', [Got, Want]));
end;

function Off(Base, Field: Pointer): NativeUInt;
begin
  Result := NativeUInt(Field) - NativeUInt(Base);
end;

procedure TestLayout;
var
  R: TDealerRunReport;
  D: TDealerDdsResults;
  Q: TDealerUserevalQuery;
  H: TDealerHandStats;
  Deal: TDealerDeal;
begin
  CheckLayout('dealer_deal', SizeOf(TDealerDeal));
  CheckLayout('dealer_deal.hands', Off(@Deal, @Deal.hands));
  CheckLayout('dealer_run_report', SizeOf(TDealerRunReport));
  CheckLayout('dealer_run_report.size', Off(@R, @R.size));
  CheckLayout('dealer_run_report.generated', Off(@R, @R.generated));
  CheckLayout('dealer_run_report.produced', Off(@R, @R.produced));
  CheckLayout('dealer_run_report.seed', Off(@R, @R.seed));
  CheckLayout('dealer_run_report.ceiling', Off(@R, @R.ceiling));
  CheckLayout('dealer_dds_results', SizeOf(TDealerDdsResults));
  CheckLayout('dealer_dds_results.size', Off(@D, @D.size));
  CheckLayout('dealer_dds_results.par_vulnerability', Off(@D, @D.par_vulnerability));
  CheckLayout('dealer_dds_results.tricks', Off(@D, @D.tricks));
  CheckLayout('dealer_dds_results.par_score_ns', Off(@D, @D.par_score_ns));
  CheckLayout('dealer_dds_results.par_contract', Off(@D, @D.par_contract));
  CheckLayout('dealer_usereval_query', SizeOf(TDealerUserevalQuery));
  CheckLayout('dealer_usereval_query.index', Off(@Q, @Q.index));
  CheckLayout('dealer_usereval_query.generated', Off(@Q, @Q.generated));
  CheckLayout('dealer_usereval_query.produced', Off(@Q, @Q.produced));
  CheckLayout('dealer_hand_stats', SizeOf(TDealerHandStats));
  CheckLayout('dealer_hand_stats.counts', Off(@H, @H.counts));
  CheckLayout('dealer_hand_stats.total_counts', Off(@H, @H.total_counts));
  CheckLayout('dealer_hand_stats.square_hand', Off(@H, @H.square_hand));
  CheckLayout('dealer_hand_stats.top_cards', Off(@H, @H.top_cards));
  CheckLayout('dealer_hand_stats.has_card', Off(@H, @H.has_card));
end;

procedure TestScriptError;
var
  S: TDealerSession;
  Raised: Boolean;
begin
  S := TDealerSession.Create;
  try
    Raised := False;
    try
      S.LoadScript('generate 10' + #10 + 'condition hcp(north) &&& 3' + #10);
    except
      on E: EDealerError do
      begin
        Raised := True;
        Check(E.Status = DEALER_ERROR_SCRIPT, 'script error status', IntToStr(E.Status));
        Check(E.Line = 2, 'script error line', IntToStr(E.Line));
        Check(E.Column = 24, 'script error column', IntToStr(E.Column));
        Check(Pos('line 2, column 24', E.Message) = 1, 'script error message', E.Message);
        Check(E.Summary <> '', 'script error summary');
      end;
    end;
    Check(Raised, 'script error raises EDealerError');
    Raised := False;
    try
      S.SetOption('no_such_option', '1');
    except
      on E: EDealerError do
        Raised := E.Status = DEALER_ERROR_OPTION;
    end;
    Check(Raised, 'option error raises EDealerError');
  finally
    S.Free;
  end;
end;

procedure TestCapture(const ScriptFile, Seed, OutFile: string);
var
  S: TDealerSession;
  R: TDealerRunReport;
  F: TFileStream;
  Text: UTF8String;
  Status: Integer;
begin
  S := TDealerSession.Create;
  try
    S.SetOption('seed', Seed);
    S.LoadScriptFile(ScriptFile);
    S.SetOutput(DEALER_STREAM_OUTPUT);
    Status := S.Run(R);
    Check(Status = DEALER_OK, 'run status');
    Check((R.produced = 5) and (R.generated >= 5) and (IntToStr(R.seed) = Seed),
      'run report', Format('generated %d produced %d seed %d', [R.generated, R.produced, R.seed]));
    Text := S.OutputText[DEALER_STREAM_OUTPUT];
    Check(Length(Text) > 0, 'captured output');
    F := TFileStream.Create(OutFile, fmCreate);
    try
      if Length(Text) > 0 then
        F.WriteBuffer(Text[1], Length(Text));
    finally
      F.Free;
    end;
  finally
    S.Free;
  end;
end;

procedure TestDeals;
var
  S: TDealerSession;
  Deal, Last: TDealerDeal;
  N, H, I: Integer;
  AllOk, HcpOk: Boolean;
  Mask: UInt64;
  Dds: TDealerDdsResults;
  Id: Cardinal;
begin
  S := TDealerSession.Create;
  try
    S.SetSeed(11);
    S.LoadScript('generate 100' + #10 + 'produce 4' + #10 + 'condition hcp(north) >= 0' + #10);
    S.SetProduce(4);
    N := 0;
    AllOk := True;
    HcpOk := True;
    Id := S.CompileExpression('hcp(south)');
    while S.NextDeal(Deal) do
    begin
      Inc(N);
      Last := Deal;
      Mask := 0;
      for I := 0 to 3 do
      begin
        if (Mask and Deal.hands[I]) <> 0 then
          AllOk := False;
        Mask := Mask or Deal.hands[I];
      end;
      if Mask <> $1FFF1FFF1FFF1FFF then
        AllOk := False;
      H := S.Eval('hcp(north)');
      if (H < 0) or (H > 37) then
        HcpOk := False;
      H := S.EvalCompiled(Id);
      if (H < 0) or (H > 37) then
        HcpOk := False;
      if N > 100 then
        Break;
    end;
    Check(N = 4, 'NextDeal yields 4 deals then DONE', IntToStr(N));
    Check(AllOk, 'deals hold 52 distinct cards');
    Check(HcpOk, 'Eval hcp(north) in 0..37');
    Check(Length(DealToPbn(Last)) > 60, 'DealToPbn', DealToPbn(Last));
    Dds := S.DdsTable(Last, 0);
    AllOk := True;
    N := 0;
    for H := 0 to 3 do
      for I := 0 to 4 do
      begin
        Inc(N);
        if (Dds.tricks[H][I] < 0) or (Dds.tricks[H][I] > 13) then
          AllOk := False;
      end;
    Check((N = 20) and AllOk, 'DD table: 20 values in 0..13');
    for I := 0 to 4 do
      if Dds.tricks[0][I] + Dds.tricks[1][I] <> 13 then
        AllOk := False;
    Check(AllOk, 'DD table: North + East = 13 in each strain');
  finally
    S.Free;
  end;
end;

procedure TestFreeTwice;
var
  S: TDealerSession;
  Raised: Boolean;
begin
  S := TDealerSession.Create;
  S.Close;
  Check(S.Handle = nil, 'Close sets the handle to nil');
  S.Close;
  Raised := False;
  try
    S.Eval('1');
  except
    on E: EDealerError do
      Raised := True;
  end;
  Check(Raised, 'a closed session raises EDealerError');
  S.Free;
  Check(True, 'freeing twice is safe');
  Check(dealer_version_number = DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100
    + DEALER_VERSION_PATCH, 'version number matches the unit', DealerVersion);
end;

begin
  Passed := 0;
  Failed := 0;
  if ParamCount < 4 then
  begin
    WriteLn('usage: test_dealer LAYOUT_FILE SCRIPT_FILE SEED CAPTURE_OUT');
    Halt(2);
  end;
  Layout := TStringList.Create;
  try
    Layout.NameValueSeparator := ' ';
    Layout.LoadFromFile(ParamStr(1));
    try
      TestLayout;
      TestScriptError;
      TestCapture(ParamStr(2), ParamStr(3), ParamStr(4));
      TestDeals;
      TestFreeTwice;
    except
      on E: Exception do
        Check(False, 'unexpected exception', E.ClassName + ': ' + E.Message);
    end;
  finally
    Layout.Free;
  end;
  WriteLn(Passed, ' passed, ', Failed, ' failed');
  if Failed > 0 then
    Halt(1);
end.
