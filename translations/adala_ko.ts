<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>AdalaReport</name>
    <message>
        <source>Generated %1</source>
        <translation>생성: %1</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>생성 도구: %1</translation>
    </message>
    <message>
        <source>Run database: %1</source>
        <translation>실행 데이터베이스: %1</translation>
    </message>
    <message>
        <source>Attention maps</source>
        <translation>어텐션 맵</translation>
    </message>
    <message>
        <source>Segmentation</source>
        <translation>분할(세그멘테이션)</translation>
    </message>
    <message>
        <source>ViT-AdaLA run report: %1</source>
        <translation>ViT-AdaLA 실행 보고서: %1</translation>
    </message>
    <message>
        <source>ViT-AdaLA comparison: %1</source>
        <translation>ViT-AdaLA 비교: %1</translation>
    </message>
    <message>
        <source>%1 pt</source>
        <translation>%1%p</translation>
    </message>
    <message>
        <source>done</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>Teacher (softmax attention), top-1</source>
        <translation>교사 모델 (소프트맥스 어텐션), top-1</translation>
    </message>
    <message>
        <source>Student after Stage 2 (teacher&apos;s head), top-1</source>
        <translation>2단계 후 학생 모델 (교사 분류 헤드), top-1</translation>
    </message>
    <message>
        <source>Student (linear attention), top-1</source>
        <translation>학생 모델 (선형 어텐션), top-1</translation>
    </message>
    <message>
        <source>%1, mIoU</source>
        <translation>%1, mIoU</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>교사</translation>
    </message>
    <message>
        <source>Student (Stage 2)</source>
        <translation>학생 (2단계)</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>학생</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>개요</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s) found while building this report (the report is otherwise complete):</source>
        <translation>
            <numerusform>보고서를 만드는 중 문제 %n건이 발견되었습니다 (나머지 내용은 모두 포함되어 있습니다):</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>생성 시각</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>Ended</source>
        <translation>종료 시각</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>LibTorch</source>
        <translation>LibTorch 버전</translation>
    </message>
    <message>
        <source>Workbench version</source>
        <translation>워크벤치 버전</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>태그</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>메모</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>항목</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>설정 항목</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(설정 안 됨)</translation>
    </message>
    <message>
        <source>The runs share the same configuration.</source>
        <translation>모든 실행의 설정이 같습니다.</translation>
    </message>
    <message numerus="yes">
        <source>%n setting(s) differ between the runs:</source>
        <translation>
            <numerusform>실행 간에 다른 설정 %n개:</numerusform>
        </translation>
    </message>
    <message>
        <source>Shared settings</source>
        <translation>공통 설정</translation>
    </message>
    <message>
        <source>Training stages</source>
        <translation>학습 단계</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>경과 시간</translation>
    </message>
    <message>
        <source>Final loss</source>
        <translation>최종 손실</translation>
    </message>
    <message>
        <source>Best loss</source>
        <translation>최저 손실</translation>
    </message>
    <message>
        <source>Images/s</source>
        <translation>이미지/초</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>step</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>손실</translation>
    </message>
    <message>
        <source>Training loss per stage, all runs.</source>
        <translation>단계별 학습 손실 (모든 실행).</translation>
    </message>
    <message>
        <source>Training loss per stage.</source>
        <translation>단계별 학습 손실.</translation>
    </message>
    <message>
        <source>Per-block alignment error</source>
        <translation>블록별 정렬 오차</translation>
    </message>
    <message>
        <source>attention MSE</source>
        <translation>어텐션 MSE</translation>
    </message>
    <message>
        <source>hidden-state MSE</source>
        <translation>은닉 상태 MSE</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>블록 %1</translation>
    </message>
    <message>
        <source>%1 per block over the steps of %2 (run %3).</source>
        <translation>%2 동안의 블록별 %1 (실행 %3).</translation>
    </message>
    <message>
        <source>Final %1 per block</source>
        <translation>블록별 최종 %1</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>블록</translation>
    </message>
    <message>
        <source>Final %1</source>
        <translation>최종 %1</translation>
    </message>
    <message>
        <source>Final %1 of every block (%2).</source>
        <translation>모든 블록의 최종 %1 (%2).</translation>
    </message>
    <message>
        <source>Teacher vs student</source>
        <translation>교사 대 학생</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>평가 항목</translation>
    </message>
    <message>
        <source>Gap to the teacher (student − teacher)</source>
        <translation>교사와의 차이 (학생 − 교사)</translation>
    </message>
    <message>
        <source>Top-1 accuracy and mIoU</source>
        <translation>Top-1 정확도와 mIoU</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>Test-set accuracy of the teacher and the student.</source>
        <translation>테스트 세트에서 교사와 학생 모델의 정확도.</translation>
    </message>
    <message>
        <source>(a) teacher (softmax)</source>
        <translation>(a) 교사 (소프트맥스)</translation>
    </message>
    <message>
        <source>(b) naive swap (Stage 3 only)</source>
        <translation>(b) 단순 교체 (3단계만)</translation>
    </message>
    <message>
        <source>(c) Stage 2 + 3</source>
        <translation>(c) 2단계 + 3단계</translation>
    </message>
    <message>
        <source>(d) Stage 1 + 2 + 3 (ViT-AdaLA)</source>
        <translation>(d) 1단계 + 2단계 + 3단계 (ViT-AdaLA)</translation>
    </message>
    <message>
        <source>Ablation</source>
        <translation>절제 실험</translation>
    </message>
    <message>
        <source>The variants of the ablation &quot;%1&quot;, trained on the same data with the same budget.</source>
        <translation>절제 실험 &quot;%1&quot;의 변형들로, 같은 데이터와 같은 학습 예산으로 학습했습니다.</translation>
    </message>
    <message>
        <source>(e) Stage 1 + 3 (Stage 1 only)</source>
        <translation>(e) 1단계 + 3단계 (1단계만)</translation>
    </message>
    <message>
        <source>(f) Stage 1 + 2 + 3, only Q/K/V trained in Stage 2</source>
        <translation>(f) 1단계 + 2단계 + 3단계, 2단계에서 Q/K/V만 학습</translation>
    </message>
    <message>
        <source>Linearisation methods</source>
        <translation>선형화 방법</translation>
    </message>
    <message>
        <source>The methods of the comparison &quot;%1&quot;, adapted from one shared teacher with the same data and budget; inference cost at batch 1.</source>
        <translation>비교 &quot;%1&quot;의 방법들로, 하나의 공유 교사에서 같은 데이터와 같은 학습 예산으로 변환했습니다. 추론 비용은 배치 크기 1 기준입니다.</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>방법</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>변형</translation>
    </message>
    <message>
        <source>Top-1</source>
        <translation>Top-1</translation>
    </message>
    <message>
        <source>Gap to teacher</source>
        <translation>교사와의 차이</translation>
    </message>
    <message>
        <source>Stage 2 feature MSE</source>
        <translation>2단계 특징 MSE</translation>
    </message>
    <message>
        <source>(c) Stage 2 only</source>
        <translation>(c) 2단계만</translation>
    </message>
    <message>
        <source>(d) Stage 1 then 2</source>
        <translation>(d) 1단계 후 2단계</translation>
    </message>
    <message>
        <source>Stage 2 loss with and without Stage 1 attention alignment first.</source>
        <translation>1단계 어텐션 정렬을 먼저 했을 때와 하지 않았을 때의 2단계 손실.</translation>
    </message>
    <message>
        <source>(d) is below (c) at %1 of %2 logged points after the first 10% of steps.</source>
        <translation>처음 10% 스텝 이후 기록된 %2개 지점 중 %1개에서 (d)가 (c)보다 낮습니다.</translation>
    </message>
    <message>
        <source>Tables written by adala ablate: %1</source>
        <translation>adala ablate가 작성한 표: %1</translation>
    </message>
    <message>
        <source>Figure file could not be read: %1</source>
        <translation>그림 파일을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Figure file is missing: %1</source>
        <translation>그림 파일이 없습니다: %1</translation>
    </message>
    <message>
        <source>Resolution scaling</source>
        <translation>해상도 확장성</translation>
    </message>
    <message>
        <source>Scaling table could not be read: %1</source>
        <translation>확장성 표를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Scaling table is missing: %1</source>
        <translation>확장성 표 파일이 없습니다: %1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>해상도</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>토큰 수</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>어텐션</translation>
    </message>
    <message>
        <source>GMACs</source>
        <translation>GMACs</translation>
    </message>
    <message>
        <source>ms / image</source>
        <translation>ms / 이미지</translation>
    </message>
    <message>
        <source>Peak memory (MB)</source>
        <translation>최대 메모리 (MB)</translation>
    </message>
    <message>
        <source>Training step (ms)</source>
        <translation>학습 스텝 (ms)</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>비고</translation>
    </message>
    <message>
        <source>Latency (ms / image)</source>
        <translation>지연 시간 (ms / 이미지)</translation>
    </message>
    <message>
        <source>GMACs (whole model)</source>
        <translation>GMACs (모델 전체)</translation>
    </message>
    <message>
        <source>Throughput (images/s)</source>
        <translation>처리량 (이미지/초)</translation>
    </message>
    <message>
        <source>resolution (pixels)</source>
        <translation>해상도 (픽셀)</translation>
    </message>
    <message>
        <source>Cost of softmax and linear attention as the input resolution grows (run %1).</source>
        <translation>입력 해상도가 커질 때 소프트맥스 어텐션과 선형 어텐션의 비용 (실행 %1).</translation>
    </message>
    <message>
        <source>configuration</source>
        <translation>설정 파일</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>체크포인트</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>summary</source>
        <translation>요약</translation>
    </message>
    <message>
        <source>attention figure</source>
        <translation>어텐션 그림</translation>
    </message>
    <message>
        <source>segmentation figure</source>
        <translation>분할 그림</translation>
    </message>
    <message>
        <source>scaling table</source>
        <translation>확장성 표</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>present</source>
        <translation>있음</translation>
    </message>
    <message>
        <source>MISSING</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1분 %2초</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1시간 %2분</translation>
    </message>
    <message>
        <source>Stage 0 · teacher pretraining</source>
        <translation>0단계 · 교사 사전 학습</translation>
    </message>
    <message>
        <source>Stage 1 · attention alignment</source>
        <translation>1단계 · 어텐션 정렬</translation>
    </message>
    <message>
        <source>Stage 2 · feature alignment</source>
        <translation>2단계 · 특징 정렬</translation>
    </message>
    <message>
        <source>Stage 3 · fine-tuning</source>
        <translation>3단계 · 미세 조정</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>목차</translation>
    </message>
    <message>
        <source>Figure %1.</source>
        <translation>그림 %1.</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>%2쪽 중 %1쪽</translation>
    </message>
    <message>
        <source>block</source>
        <translation>블록</translation>
    </message>
    <message>
        <source>mIoU</source>
        <translation>mIoU</translation>
    </message>
    <message>
        <source>Top-1 accuracy</source>
        <translation>Top-1 정확도</translation>
    </message>
    <message>
        <source>run %1: %2 artifact missing: %3</source>
        <translation>실행 %1: %2 파일이 없습니다: %3</translation>
    </message>
    <message>
        <source>run %1: %2 artifact unreadable: %3 (%4)</source>
        <translation>실행 %1: %2 파일을 읽을 수 없습니다: %3 (%4)</translation>
    </message>
    <message>
        <source>Train acc.</source>
        <translation>학습 정확도</translation>
    </message>
    <message>
        <source>Numerical health</source>
        <translation>수치 안정성</translation>
    </message>
    <message>
        <source>Linear attention divides by the normaliser phi(q) · Σ phi(k) + eps; in bf16 or fp16 it is where NaNs start. Worst values over every logged step, with the block where they occurred.</source>
        <translation>선형 어텐션은 정규화 값 phi(q) · Σ phi(k) + eps로 나눕니다. bf16이나 fp16에서는 이곳에서 NaN이 시작됩니다. 기록된 모든 스텝에 걸친 최악의 값과 그 값이 나온 블록입니다.</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>정밀도</translation>
    </message>
    <message>
        <source>Smallest normaliser</source>
        <translation>최소 정규화 값</translation>
    </message>
    <message>
        <source>Share below threshold</source>
        <translation>임계값 미만 비율</translation>
    </message>
    <message>
        <source>Non-finite (attention / block / gradient)</source>
        <translation>비유한 값 (어텐션 / 블록 / 기울기)</translation>
    </message>
    <message>
        <source>Largest |activation|</source>
        <translation>최대 |활성값|</translation>
    </message>
    <message>
        <source>Skipped steps</source>
        <translation>건너뛴 스텝</translation>
    </message>
    <message>
        <source>%1 (block %2)</source>
        <translation>%1 (블록 %2)</translation>
    </message>
    <message>
        <source>The y axis is logarithmic.</source>
        <translation>y축은 로그 눈금입니다.</translation>
    </message>
    <message>
        <source>The y axes are logarithmic.</source>
        <translation>모든 y축은 로그 눈금입니다.</translation>
    </message>
    <message>
        <source>Logarithmic y axis: %1.</source>
        <translation>로그 눈금 y축: %1.</translation>
    </message>
    <message>
        <source>Stage 1 compares each block&apos;s linear attention output with the teacher&apos;s softmax attention; Stage 2 compares each block&apos;s hidden states with the teacher&apos;s. Lower is better.</source>
        <translation>1단계는 각 블록의 선형 어텐션 출력을 교사 모델의 소프트맥스 어텐션과 비교하고, 2단계는 각 블록의 은닉 상태를 교사 모델의 은닉 상태와 비교합니다. 값이 낮을수록 좋습니다.</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>학습 시간</translation>
    </message>
    <message>
        <source>the model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2의 %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>%1: %2, the teacher (softmax attention) only; stages run: %3.</source>
        <translation>%1: %2, 교사 모델(소프트맥스 어텐션)만 학습; 실행한 단계: %3.</translation>
    </message>
    <message>
        <source>%1: %2, softmax attention replaced by linear attention; stages run: %3.</source>
        <translation>%1: %2, 소프트맥스 어텐션을 선형 어텐션으로 교체; 실행한 단계: %3.</translation>
    </message>
    <message>
        <source>%1: %2, softmax attention replaced by linear attention with the method %3 (feature map %4); stages run: %5.</source>
        <translation>%1: %2, %3 방법(특징 맵 %4)으로 소프트맥스 어텐션을 선형 어텐션으로 교체; 실행한 단계: %5.</translation>
    </message>
    <message>
        <source>Student %1 vs teacher %2, gap %3.</source>
        <translation>학생 %1 대 교사 %2, 차이 %3.</translation>
    </message>
    <message>
        <source>Student after Stage 2 (teacher&apos;s head) %1 vs teacher %2, gap %3.</source>
        <translation>2단계 후 학생(교사 분류 헤드) %1 대 교사 %2, 차이 %3.</translation>
    </message>
    <message>
        <source>Teacher %1; the student was not evaluated.</source>
        <translation>교사 %1; 학생 모델은 평가되지 않았습니다.</translation>
    </message>
    <message>
        <source>Student %1; the teacher was not evaluated.</source>
        <translation>학생 %1; 교사 모델은 평가되지 않았습니다.</translation>
    </message>
    <message>
        <source>No accuracy was recorded.</source>
        <translation>기록된 정확도가 없습니다.</translation>
    </message>
    <message>
        <source>%1× (%2 / %3 MB)</source>
        <translation>%1배 (%2 / %3 MB)</translation>
    </message>
    <message>
        <source>%1× (%2 / %3 ms)</source>
        <translation>%1배 (%2 / %3 ms)</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>요약</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>ms / image at %1², student / teacher</source>
        <translation>%1² 이미지당 ms, 학생 / 교사</translation>
    </message>
    <message>
        <source>Peak memory at %1², student / teacher</source>
        <translation>%1² 최대 메모리, 학생 / 교사</translation>
    </message>
    <message>
        <source>Inference cost at batch 1, measured by adala compare-methods for the student and the comparison&apos;s teacher.</source>
        <translation>배치 1 추론 비용: adala compare-methods가 학생 모델과 비교의 교사 모델에서 측정한 값입니다.</translation>
    </message>
    <message>
        <source>Inference cost from the run&apos;s scaling table: the model with linear attention (student) against softmax attention (teacher).</source>
        <translation>실행의 스케일링 표에서 얻은 추론 비용: 선형 어텐션(학생) 모델 대 소프트맥스 어텐션(교사) 모델.</translation>
    </message>
    <message>
        <source>%1: gap %2</source>
        <translation>%1: 차이 %2</translation>
    </message>
    <message>
        <source>gap %1</source>
        <translation>차이 %1</translation>
    </message>
    <message>
        <source>The y axis starts at %1, not at 0.</source>
        <translation>y축은 0이 아니라 %1에서 시작합니다.</translation>
    </message>
    <message>
        <source>Unsteady machine: the reference matmul rate moved %1 % during this benchmark (%2 to %3 GFLOP/s), more than the %4 % a trusted run allows. Ratios between these rows are not to be trusted; measure again.</source>
        <translation>불안정한 머신: 이 벤치마크 동안 기준 행렬곱 속도가 %1 % 변했습니다(%2~%3 GFLOP/s). 신뢰할 수 있는 실행의 허용치 %4 %를 넘습니다. 이 행들 사이의 비율은 믿을 수 없으니 다시 측정하세요.</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>배치</translation>
    </message>
    <message>
        <source>Attention plans</source>
        <translation>어텐션 계획</translation>
    </message>
    <message>
        <source>every planning session of the database</source>
        <translation>데이터베이스의 모든 계획 세션</translation>
    </message>
    <message>
        <source>the planning session &quot;%1&quot;</source>
        <translation>계획 세션 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>%1 trained attention plans of %2: which blocks keep softmax attention (S), run window + linear attention (W) or linear attention (L), block 0 first.</source>
        <translation>%2의 학습된 어텐션 계획 %1개: 어느 블록이 소프트맥스 어텐션(S)을 유지하고, 윈도 + 선형 어텐션(W) 또는 선형 어텐션(L)을 쓰는지, 블록 0부터.</translation>
    </message>
    <message>
        <source>Inference cost at %1 px, batch 1; the frontier (✓) holds the plans no other plan beats on both top-1 and ms / image.</source>
        <translation>%1 px, 배치 1의 추론 비용; 프런티어(✓)는 top-1과 ms / 이미지 둘 다에서 다른 계획에 뒤지지 않는 계획들입니다.</translation>
    </message>
    <message>
        <source>The plans share no resolution at which each has a cost: no frontier.</source>
        <translation>모든 계획에 비용이 있는 공통 해상도가 없습니다: 프런티어 없음.</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>계획</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>블록</translation>
    </message>
    <message>
        <source>Frontier</source>
        <translation>프런티어</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>세션</translation>
    </message>
    <message>
        <source>Top-1 against latency</source>
        <translation>지연 시간 대비 Top-1</translation>
    </message>
    <message>
        <source>Top-1 against peak memory</source>
        <translation>최대 메모리 대비 Top-1</translation>
    </message>
    <message>
        <source>ms / image at %1 px</source>
        <translation>%1 px에서 ms / 이미지</translation>
    </message>
    <message>
        <source>peak memory (MB) at %1 px</source>
        <translation>%1 px에서 최대 메모리 (MB)</translation>
    </message>
    <message>
        <source>top-1 (%)</source>
        <translation>top-1 (%)</translation>
    </message>
    <message>
        <source>plans</source>
        <translation>계획</translation>
    </message>
    <message>
        <source>frontier</source>
        <translation>프런티어</translation>
    </message>
    <message>
        <source>Top-1 of each trained plan against its inference cost; the line steps through the frontier.</source>
        <translation>학습된 각 계획의 추론 비용 대비 top-1; 선은 프런티어를 계단식으로 잇습니다.</translation>
    </message>
    <message>
        <source>Segmentation summary could not be read: %1 (%2)</source>
        <translation>분할 요약을 읽을 수 없습니다: %1 (%2)</translation>
    </message>
    <message>
        <source>Segmentation summary is missing: %1</source>
        <translation>분할 요약 파일이 없습니다: %1</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>그림</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>선형</translation>
    </message>
    <message>
        <source>Mask2Former</source>
        <translation>Mask2Former</translation>
    </message>
    <message>
        <source>Trained at %1</source>
        <translation>%1 해상도로 학습</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>backbone frozen</source>
        <translation>백본 고정</translation>
    </message>
    <message>
        <source>lr × %1 of the head&apos;s</source>
        <translation>헤드 학습률의 × %1</translation>
    </message>
    <message>
        <source>layer decay %1</source>
        <translation>레이어 감쇠 %1</translation>
    </message>
    <message>
        <source>backbone fine-tuned</source>
        <translation>백본 미세 조정</translation>
    </message>
    <message>
        <source>backbone fine-tuned (%1)</source>
        <translation>백본 미세 조정 (%1)</translation>
    </message>
    <message>
        <source>heads: %1</source>
        <translation>헤드: %1</translation>
    </message>
    <message>
        <source>%1 training scenes</source>
        <translation>학습 장면 %1개</translation>
    </message>
    <message>
        <source>%1 validation scenes</source>
        <translation>검증 장면 %1개</translation>
    </message>
    <message>
        <source>student: %1</source>
        <translation>학생: %1</translation>
    </message>
    <message>
        <source>Segmentation: %1.</source>
        <translation>분할: %1.</translation>
    </message>
    <message>
        <source>%1: %2.</source>
        <translation>%1: %2.</translation>
    </message>
    <message>
        <source>Each head is trained on the teacher&apos;s backbone (softmax attention) and on the student&apos;s (linear attention) with the same initialisation and batches; mIoU and pixel accuracy on the validation scenes.</source>
        <translation>각 헤드는 교사 모델의 백본(소프트맥스 어텐션)과 학생 모델의 백본(선형 어텐션)에서 같은 초기화와 배치로 학습합니다. mIoU와 픽셀 정확도는 검증 장면에서 측정한 값입니다.</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <source>Teacher mIoU (%)</source>
        <translation>교사 mIoU (%)</translation>
    </message>
    <message>
        <source>Student mIoU (%)</source>
        <translation>학생 mIoU (%)</translation>
    </message>
    <message>
        <source>Gap (pt)</source>
        <translation>차이 (%p)</translation>
    </message>
    <message>
        <source>Teacher pixel accuracy (%)</source>
        <translation>교사 픽셀 정확도 (%)</translation>
    </message>
    <message>
        <source>Student pixel accuracy (%)</source>
        <translation>학생 픽셀 정확도 (%)</translation>
    </message>
    <message>
        <source>Teacher training</source>
        <translation>교사 학습 시간</translation>
    </message>
    <message>
        <source>Student training</source>
        <translation>학생 학습 시간</translation>
    </message>
    <message>
        <source>Resolution sweep</source>
        <translation>해상도별 평가</translation>
    </message>
    <message>
        <source>The heads trained at the training resolution, evaluated at each resolution on scenes whose garments keep their pixel size; images/s and peak memory of one prediction at batch 1. × is student / teacher.</source>
        <translation>학습 해상도에서 학습한 헤드를 의류의 픽셀 크기가 유지되는 장면에서 해상도별로 평가했습니다. 이미지/초와 최대 메모리는 배치 1에서 예측 한 번의 값입니다. ×는 학생 / 교사입니다.</translation>
    </message>
    <message>
        <source>Teacher img/s</source>
        <translation>교사 이미지/초</translation>
    </message>
    <message>
        <source>Student img/s</source>
        <translation>학생 이미지/초</translation>
    </message>
    <message>
        <source>× img/s</source>
        <translation>× 이미지/초</translation>
    </message>
    <message>
        <source>Teacher peak MB</source>
        <translation>교사 최대 MB</translation>
    </message>
    <message>
        <source>Student peak MB</source>
        <translation>학생 최대 MB</translation>
    </message>
    <message>
        <source>× memory</source>
        <translation>× 메모리</translation>
    </message>
    <message>
        <source>%1: %2 scenes</source>
        <translation>%1: 장면 %2개</translation>
    </message>
    <message>
        <source>(%1–%2 garments each)</source>
        <translation>(장면당 의류 %1–%2개)</translation>
    </message>
    <message>
        <source>paper</source>
        <translation>논문</translation>
    </message>
    <message>
        <source>paper: %1</source>
        <translation>논문: %1</translation>
    </message>
    <message>
        <source>Validation scenes per resolution: %1.</source>
        <translation>해상도별 검증 장면: %1.</translation>
    </message>
    <message>
        <source>The paper&apos;s row is its published result (ViT-AdaLA, its data, model and GPU): compare its ratios with this run&apos;s, not its absolute values.</source>
        <translation>논문 행은 논문에 발표된 결과입니다(ViT-AdaLA, 논문의 데이터, 모델, GPU). 절대값이 아니라 비율을 이 실행의 비율과 비교하세요.</translation>
    </message>
    <message>
        <source>segmentation summary</source>
        <translation>분할 요약</translation>
    </message>
    <message>
        <source>Teacher&apos;s mean IoU over the classes, in percent</source>
        <translation>교사 모델의 클래스 평균 IoU (%)</translation>
    </message>
    <message>
        <source>Student&apos;s mean IoU over the classes, in percent</source>
        <translation>학생 모델의 클래스 평균 IoU (%)</translation>
    </message>
    <message>
        <source>Student − teacher mIoU, in percentage points (negative: the student loses)</source>
        <translation>학생 − 교사 mIoU, %p 단위 (음수: 학생이 뒤처짐)</translation>
    </message>
    <message>
        <source>Teacher&apos;s images per second at batch 1</source>
        <translation>배치 1에서 교사 모델의 초당 이미지 수</translation>
    </message>
    <message>
        <source>Student&apos;s images per second at batch 1</source>
        <translation>배치 1에서 학생 모델의 초당 이미지 수</translation>
    </message>
    <message>
        <source>Student ÷ teacher</source>
        <translation>학생 ÷ 교사</translation>
    </message>
    <message>
        <source>Teacher&apos;s peak memory of one prediction, in MB</source>
        <translation>예측 한 번에 쓰는 교사 모델의 최대 메모리 (MB)</translation>
    </message>
    <message>
        <source>Student&apos;s peak memory of one prediction, in MB</source>
        <translation>예측 한 번에 쓰는 학생 모델의 최대 메모리 (MB)</translation>
    </message>
</context>
<context>
    <name>ColourScale</name>
    <message>
        <source>The range&apos;s ends must be finite numbers.</source>
        <translation>범위의 양 끝은 유한한 수여야 합니다.</translation>
    </message>
    <message>
        <source>The range&apos;s minimum must be below its maximum.</source>
        <translation>범위의 최솟값은 최댓값보다 작아야 합니다.</translation>
    </message>
    <message>
        <source>Type the range as two numbers, minimum..maximum (e.g. 0..0.01).</source>
        <translation>범위를 두 수로 입력하세요: 최솟값..최댓값 (예: 0..0.01).</translation>
    </message>
    <message>
        <source>shared scale</source>
        <translation>공통 눈금</translation>
    </message>
    <message>
        <source>per-pane scale</source>
        <translation>창별 눈금</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>로그 눈금</translation>
    </message>
    <message>
        <source>fixed range</source>
        <translation>고정 범위</translation>
    </message>
</context>
<context>
    <name>FigureExport</name>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1에 쓸 수 없습니다.</translation>
    </message>
</context>
<context>
    <name>adala::gui::EngineController</name>
    <message>
        <source>Cancelling after the current step…</source>
        <translation>현재 스텝이 끝나면 취소합니다…</translation>
    </message>
    <message>
        <source>Cancelling every job…</source>
        <translation>모든 작업을 취소하는 중…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>취소했습니다.</translation>
    </message>
    <message>
        <source>no teacher: select stage 0 or give pretrained teacher weights</source>
        <translation>교사 모델이 없습니다: 0단계를 선택하거나 사전 학습된 교사 가중치를 지정하세요</translation>
    </message>
    <message>
        <source>not valid JSON: %1</source>
        <translation>올바른 JSON이 아닙니다: %1</translation>
    </message>
    <message>
        <source>A run on several processes cannot be paused; cancel it instead (it checkpoints) and resume it from the run list.</source>
        <translation>여러 프로세스로 실행 중인 작업은 일시 정지할 수 없습니다. 대신 취소하고(체크포인트가 저장됩니다) 실행 목록에서 이어서 실행하세요.</translation>
    </message>
    <message>
        <source>cancelled before it started</source>
        <translation>시작하기 전에 취소되었습니다</translation>
    </message>
    <message>
        <source>no CUDA GPU here (this build&apos;s LibTorch is for CPUs, or no GPU is visible): choose auto or cpu</source>
        <translation>여기에는 CUDA GPU가 없습니다(이 빌드의 LibTorch는 CPU용이거나 보이는 GPU가 없습니다): auto 또는 cpu를 선택하세요</translation>
    </message>
    <message>
        <source>A resolution sweep is already running.</source>
        <translation>해상도 스윕이 이미 실행 중입니다.</translation>
    </message>
</context>
<context>
    <name>adala::gui::EngineWorker</name>
    <message>
        <source>cancelled before it started</source>
        <translation>시작하기 전에 취소되었습니다</translation>
    </message>
    <message>
        <source>run database %1: %2</source>
        <translation>실행 데이터베이스 %1: %2</translation>
    </message>
    <message>
        <source>teacher top-1 %1, student top-1 %2</source>
        <translation>교사 top-1 %1, 학생 top-1 %2</translation>
    </message>
    <message>
        <source>%1; resumable from its last checkpoint</source>
        <translation>%1; 마지막 체크포인트에서 이어서 실행할 수 있습니다</translation>
    </message>
</context>
<context>
    <name>adala::gui::FeatureWorker</name>
    <message>
        <source>Cannot compare the features: %1</source>
        <translation>특징을 비교할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Resolution sweep cancelled.</source>
        <translation>해상도 스윕이 취소되었습니다.</translation>
    </message>
    <message>
        <source>Resolution sweep failed: %1</source>
        <translation>해상도 스윕 실패: %1</translation>
    </message>
</context>
<context>
    <name>adala::gui::InspectionWorker</name>
    <message>
        <source>Cancelled.</source>
        <translation>취소했습니다.</translation>
    </message>
    <message>
        <source>Cannot inspect: %1</source>
        <translation>검사할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Cannot compute attention rows: %1</source>
        <translation>어텐션 행을 계산할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>item %1: %2</source>
        <translation>항목 %1: %2</translation>
    </message>
    <message>
        <source>Cannot compute the overview: %1</source>
        <translation>개요를 계산할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>adala::gui::MainWindow</name>
    <message>
        <source>AdaLA Workbench</source>
        <translation>AdaLA 워크벤치</translation>
    </message>
    <message>
        <source>Attention MSE</source>
        <translation>어텐션 MSE</translation>
    </message>
    <message>
        <source>Attention inspector</source>
        <translation>어텐션 검사기</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>실행 목록</translation>
    </message>
    <message>
        <source>Stage launcher</source>
        <translation>단계 실행기</translation>
    </message>
    <message>
        <source>database: %1</source>
        <translation>데이터베이스: %1</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>준비되었습니다.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open experiment…</source>
        <translation>실험 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save experiment as…</source>
        <translation>다른 이름으로 실험 저장(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>Open &amp;checkpoint…</source>
        <translation>체크포인트 열기(&amp;C)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation>Ctrl+Shift+O</translation>
    </message>
    <message>
        <source>Open &amp;image…</source>
        <translation>이미지 열기(&amp;I)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>&amp;Export plot…</source>
        <translation>그래프 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>실행(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>시작(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <source>&amp;Pause / resume</source>
        <translation>일시 정지 / 계속(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+P</source>
        <translation>Ctrl+P</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <source>Show the &amp;live run</source>
        <translation>진행 중인 실행 보기(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>Attention &amp;MSE plots</source>
        <translation>어텐션 MSE 그래프(&amp;M)</translation>
    </message>
    <message>
        <source>Ctrl+1</source>
        <translation>Ctrl+1</translation>
    </message>
    <message>
        <source>Attention &amp;inspector</source>
        <translation>어텐션 검사기(&amp;I)</translation>
    </message>
    <message>
        <source>Ctrl+2</source>
        <translation>Ctrl+2</translation>
    </message>
    <message>
        <source>Ctrl+3</source>
        <translation>Ctrl+3</translation>
    </message>
    <message>
        <source>Ctrl+4</source>
        <translation>Ctrl+4</translation>
    </message>
    <message>
        <source>&amp;Logarithmic MSE axis</source>
        <translation>MSE 축 로그 눈금(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>&amp;Refresh runs</source>
        <translation>실행 목록 새로 고침(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>시스템 설정 따르기(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>밝게(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>어둡게(&amp;D)</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>레이아웃 초기화(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>단축키(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>정보(&amp;A)</translation>
    </message>
    <message>
        <source>About AdaLA Workbench</source>
        <translation>AdaLA 워크벤치 정보</translation>
    </message>
    <message>
        <source>&lt;b&gt;AdaLA Workbench&lt;/b&gt;&lt;p&gt;Adapts a softmax Vision Transformer into a linear-attention one (ViT-AdaLA: attention alignment, feature alignment, fine-tuning) and shows every step.&lt;/p&gt;</source>
        <translation>&lt;b&gt;AdaLA 워크벤치&lt;/b&gt;&lt;p&gt;소프트맥스 비전 트랜스포머를 선형 어텐션 모델로 바꾸고(ViT-AdaLA: 어텐션 정렬, 특징 정렬, 미세 조정) 모든 단계를 보여 줍니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>#%1 %2 (live)</source>
        <translation>#%1 %2 (진행 중)</translation>
    </message>
    <message>
        <source>Run %1 (%2) running in %3</source>
        <translation>실행 %1 (%2)이(가) %3에서 진행 중</translation>
    </message>
    <message>
        <source>%1 %2 = %3</source>
        <translation>%1 %2 = %3</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Run %1: %2. %3</source>
        <translation>실행 %1: %2. %3</translation>
    </message>
    <message>
        <source>Cannot open run %1: %2</source>
        <translation>실행 %1을(를) 열 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Showing run %1 (%2 checkpoints).</source>
        <translation>실행 %1 표시 중 (체크포인트 %2개).</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>비교할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Comparing runs %1.</source>
        <translation>실행 %1 비교 중.</translation>
    </message>
    <message>
        <source>Run %1 has no recorded folder to resume from.</source>
        <translation>실행 %1에는 이어서 실행할 기록 폴더가 없습니다.</translation>
    </message>
    <message>
        <source>Resuming run %1 from %2…</source>
        <translation>실행 %1을(를) %2에서 이어서 실행하는 중…</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>;;SVG drawing (*.svg)</source>
        <translation>;;SVG 도면 (*.svg)</translation>
    </message>
    <message>
        <source>;;CSV table (*.csv)</source>
        <translation>;;CSV 표 (*.csv)</translation>
    </message>
    <message>
        <source>Export the plots</source>
        <translation>그래프 내보내기</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>Could not export %1</source>
        <translation>%1(으)로 내보낼 수 없습니다</translation>
    </message>
    <message>
        <source>Open an experiment</source>
        <translation>실험 열기</translation>
    </message>
    <message>
        <source>Experiments (*.json);;All files (*)</source>
        <translation>실험 (*.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Save the experiment</source>
        <translation>실험 저장</translation>
    </message>
    <message>
        <source>Experiments (*.json)</source>
        <translation>실험 (*.json)</translation>
    </message>
    <message>
        <source>Open a checkpoint</source>
        <translation>체크포인트 열기</translation>
    </message>
    <message>
        <source>safetensors (*.safetensors)</source>
        <translation>safetensors 파일 (*.safetensors)</translation>
    </message>
    <message>
        <source>Open an image</source>
        <translation>이미지 열기</translation>
    </message>
    <message>
        <source>Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp);;All files (*)</source>
        <translation>이미지 (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>단축키</translation>
    </message>
    <message>
        <source>A run is in progress</source>
        <translation>실행이 진행 중입니다</translation>
    </message>
    <message>
        <source>Stop the run and quit?

The current stage finishes its step, saves a checkpoint, and the run is marked interrupted: resume it later from the run list.</source>
        <translation>실행을 멈추고 종료할까요?

현재 단계는 진행 중인 스텝을 마치고 체크포인트를 저장하며, 실행은 중단됨으로 표시됩니다. 나중에 실행 목록에서 이어서 실행할 수 있습니다.</translation>
    </message>
    <message>
        <source>Stopping the run after its current step…</source>
        <translation>현재 스텝이 끝나면 실행을 멈춥니다…</translation>
    </message>
    <message>
        <source>Export &amp;report…</source>
        <translation>보고서 내보내기(&amp;R)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>Select one or more runs in the run list to report on.</source>
        <translation>보고서를 만들 실행을 실행 목록에서 하나 이상 선택하세요.</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>보고서를 %1에 저장했습니다</translation>
    </message>
    <message>
        <source>Lan&amp;guage</source>
        <translation>언어(&amp;G)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>시스템 설정 따르기</translation>
    </message>
    <message>
        <source>The language changes when the workbench starts again.</source>
        <translation>언어는 워크벤치를 다시 시작하면 바뀝니다.</translation>
    </message>
    <message>
        <source>Segmentation</source>
        <translation>분할</translation>
    </message>
    <message>
        <source>Open &amp;segmentation results…</source>
        <translation>분할 결과 열기(&amp;S)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+G</source>
        <translation>Ctrl+Shift+G</translation>
    </message>
    <message>
        <source>Se&amp;gmentation viewer</source>
        <translation>분할 뷰어(&amp;G)</translation>
    </message>
    <message>
        <source>Ctrl+6</source>
        <translation>Ctrl+6</translation>
    </message>
    <message>
        <source>Open segmentation results</source>
        <translation>분할 결과 열기</translation>
    </message>
    <message>
        <source>Cannot open segmentation results: %1</source>
        <translation>분할 결과를 열 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Segmentation results of %1</source>
        <translation>%1의 분할 결과</translation>
    </message>
    <message>
        <source>Run %1 has segmentation results: open the run to see them in the Segmentation tab.</source>
        <translation>실행 %1에 분할 결과가 있습니다: 실행을 열면 분할 탭에서 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Cannot show the segmentation results of run %1: %2</source>
        <translation>실행 %1의 분할 결과를 표시할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Segmentation results of run %1 are in the Segmentation tab (Ctrl+6).</source>
        <translation>실행 %1의 분할 결과는 분할 탭에 있습니다 (Ctrl+6).</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Ctrl+Shift+G / Ctrl+6&lt;/td&gt;&lt;td&gt;open segmentation results / show the viewer&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;Ctrl+Shift+G / Ctrl+6&lt;/td&gt;&lt;td&gt;분할 결과 열기 / 뷰어 표시&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>스케일링</translation>
    </message>
    <message>
        <source>Resolution scaling: GFLOPs, peak memory and latency of softmax vs linear attention (Ctrl+5)</source>
        <translation>해상도 스케일링: softmax와 선형 어텐션의 GFLOPs, 최대 메모리, 지연 시간 (Ctrl+5)</translation>
    </message>
    <message>
        <source>Open &amp;benchmark CSV…</source>
        <translation>벤치마크 CSV 열기(&amp;B)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+B</source>
        <translation>Ctrl+Shift+B</translation>
    </message>
    <message>
        <source>&amp;Scaling benchmark</source>
        <translation>스케일링 벤치마크(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+5</source>
        <translation>Ctrl+5</translation>
    </message>
    <message>
        <source>Showing %1 in the Scaling tab.</source>
        <translation>%1을(를) 스케일링 탭에 표시합니다.</translation>
    </message>
    <message>
        <source>Cannot open %1.</source>
        <translation>%1을(를) 열 수 없습니다.</translation>
    </message>
    <message>
        <source>Showing benchmark run %1.</source>
        <translation>벤치마크 실행 %1을(를) 표시합니다.</translation>
    </message>
    <message>
        <source>Cannot show benchmark run %1 (see the Scaling tab).</source>
        <translation>벤치마크 실행 %1을(를) 표시할 수 없습니다 (스케일링 탭을 확인하세요).</translation>
    </message>
    <message>
        <source>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Ctrl+O / Ctrl+Shift+S&lt;/td&gt;&lt;td&gt;open / save an experiment&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+Return&lt;/td&gt;&lt;td&gt;start the selected stages&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+P&lt;/td&gt;&lt;td&gt;pause / resume the run&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+.&lt;/td&gt;&lt;td&gt;cancel the run (checkpointed, resumable)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+1 / Ctrl+2 / Ctrl+5&lt;/td&gt;&lt;td&gt;plots / inspector / scaling benchmark&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+3 / Ctrl+4&lt;/td&gt;&lt;td&gt;show or hide the runs / launcher docks&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+Shift+B&lt;/td&gt;&lt;td&gt;open a benchmark CSV (adala bench scaling --csv)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+L&lt;/td&gt;&lt;td&gt;logarithmic MSE axis&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+E&lt;/td&gt;&lt;td&gt;export the plots (PNG, SVG, CSV)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;F5&lt;/td&gt;&lt;td&gt;refresh the run list&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+I / Ctrl+Shift+O&lt;/td&gt;&lt;td&gt;inspect an image / a checkpoint&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;arrow keys&lt;/td&gt;&lt;td&gt;move the inspector&apos;s query patch&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Page Up / Page Down&lt;/td&gt;&lt;td&gt;previous / next block&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;H / Shift+H&lt;/td&gt;&lt;td&gt;next / previous head&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;C&lt;/td&gt;&lt;td&gt;query = class token&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Ctrl+O / Ctrl+Shift+S&lt;/td&gt;&lt;td&gt;실험 열기 / 저장&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+Return&lt;/td&gt;&lt;td&gt;선택한 단계 시작&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+P&lt;/td&gt;&lt;td&gt;실행 일시 정지 / 계속&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+.&lt;/td&gt;&lt;td&gt;실행 취소 (체크포인트 저장, 이어서 실행 가능)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+1 / Ctrl+2 / Ctrl+5&lt;/td&gt;&lt;td&gt;그래프 / 검사기 / 스케일링 벤치마크&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+3 / Ctrl+4&lt;/td&gt;&lt;td&gt;실행 목록 / 실행기 도크 보이기·숨기기&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+Shift+B&lt;/td&gt;&lt;td&gt;벤치마크 CSV 열기 (adala bench scaling --csv)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+L&lt;/td&gt;&lt;td&gt;MSE 축 로그 눈금&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+E&lt;/td&gt;&lt;td&gt;그래프 내보내기 (PNG, SVG, CSV)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;F5&lt;/td&gt;&lt;td&gt;실행 목록 새로 고침&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Ctrl+I / Ctrl+Shift+O&lt;/td&gt;&lt;td&gt;이미지 / 체크포인트 검사&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;화살표 키&lt;/td&gt;&lt;td&gt;검사기의 쿼리 패치 이동&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Page Up / Page Down&lt;/td&gt;&lt;td&gt;이전 / 다음 블록&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;H / Shift+H&lt;/td&gt;&lt;td&gt;다음 / 이전 헤드&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;C&lt;/td&gt;&lt;td&gt;쿼리 = 클래스 토큰&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>Run controls</source>
        <translation>실행 제어</translation>
    </message>
    <message>
        <source>Open class folders or an image folder</source>
        <translation>클래스 폴더 또는 이미지 폴더 열기</translation>
    </message>
    <message>
        <source>Open an image list or a run&apos;s config</source>
        <translation>이미지 목록 또는 실행 설정 열기</translation>
    </message>
    <message>
        <source>Image lists and configs (*.txt *.tsv *.json);;All files (*)</source>
        <translation>이미지 목록과 설정 (*.txt *.tsv *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Numerical health</source>
        <translation>수치 안정성</translation>
    </message>
    <message>
        <source>Per-block numerical health of the run: linear-attention normalisers, activation size, non-finite values (Ctrl+7)</source>
        <translation>실행의 블록별 수치 안정성: 선형 어텐션 정규화 값, 활성값 크기, 유한하지 않은 값 (Ctrl+7)</translation>
    </message>
    <message>
        <source>Numerical &amp;health</source>
        <translation>수치 안정성(&amp;H)</translation>
    </message>
    <message>
        <source>Ctrl+7</source>
        <translation>Ctrl+7</translation>
    </message>
    <message>
        <source>Cannot read the health metrics of run %1: %2</source>
        <translation>실행 %1의 수치 안정성 지표를 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Ctrl+7&lt;/td&gt;&lt;td&gt;numerical health heatmap&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;Ctrl+7&lt;/td&gt;&lt;td&gt;수치 안정성 히트맵&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>There is no run %1 in %2.</source>
        <translation>%2에 실행 %1이(가) 없습니다.</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>요약</translation>
    </message>
    <message>
        <source>The opened run: teacher and student top-1, the gap, each stage&apos;s time and final loss, its config (Ctrl+0)</source>
        <translation>연 실행: 교사와 학생 top-1, 그 차이, 단계별 시간과 최종 손실, 설정 (Ctrl+0)</translation>
    </message>
    <message>
        <source>Run s&amp;ummary</source>
        <translation>실행 요약(&amp;U)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Run %1 (%2) paused; Resume (%3) goes on from the same step.</source>
        <translation>실행 %1 (%2) 일시 정지됨. 이어서 실행(%3)하면 같은 스텝부터 계속합니다.</translation>
    </message>
    <message>
        <source>Showing run %1 (%2 checkpoints); no summary: %3</source>
        <translation>실행 %1 표시 중 (체크포인트 %2개). 요약 없음: %3</translation>
    </message>
    <message>
        <source>Cannot read the config of run %1: %2</source>
        <translation>실행 %1의 설정을 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Ctrl+0&lt;/td&gt;&lt;td&gt;run summary (or the compare table)&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;Ctrl+0&lt;/td&gt;&lt;td&gt;실행 요약 (또는 비교 표)&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Loss &amp;&amp; lr</source>
        <translation>손실 및 학습률</translation>
    </message>
    <message>
        <source>Every stage&apos;s loss, training accuracy and learning rate (Ctrl+9)</source>
        <translation>모든 단계의 손실, 학습 정확도, 학습률 (Ctrl+9)</translation>
    </message>
    <message>
        <source>&amp;Loss and learning rate</source>
        <translation>손실 및 학습률(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+9</source>
        <translation>Ctrl+9</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Ctrl+9&lt;/td&gt;&lt;td&gt;every stage&apos;s loss and learning rate&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;Ctrl+9&lt;/td&gt;&lt;td&gt;모든 단계의 손실과 학습률&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>특징</translation>
    </message>
    <message>
        <source>Teacher vs student patch features of one image (PCA colour maps, cosine similarity) and the resolution sweep of the run (Ctrl+8)</source>
        <translation>이미지 한 장에 대한 교사와 학생의 패치 특징 비교(PCA 색상 맵, 코사인 유사도)와 실행의 해상도 스윕 (Ctrl+8)</translation>
    </message>
    <message>
        <source>&amp;Features and resolution sweep</source>
        <translation>특징 및 해상도 스윕(&amp;F)</translation>
    </message>
    <message>
        <source>Ctrl+8</source>
        <translation>Ctrl+8</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;S / Shift+S&lt;/td&gt;&lt;td&gt;inspector&apos;s colour scale: shared, per pane, log, fixed range&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;S / Shift+S&lt;/td&gt;&lt;td&gt;검사기 색 눈금: 공통, 창별, 로그, 고정 범위&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;R / G&lt;/td&gt;&lt;td&gt;inspector: attention rollout / blocks × heads overview&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;R / G&lt;/td&gt;&lt;td&gt;검사기: 어텐션 롤아웃 / 블록 × 헤드 개요&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source> The launcher keeps its unsaved experiment.</source>
        <translation> 실행기는 저장하지 않은 실험을 그대로 둡니다.</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>계획</translation>
    </message>
    <message>
        <source>Trained attention plans: top-1 against ms / image or peak memory, the accuracy-cost frontier, each plan&apos;s blocks (Ctrl+Shift+P)</source>
        <translation>학습된 어텐션 계획: ms / 이미지 또는 최대 메모리 대비 top-1, 정확도-비용 프런티어, 각 계획의 블록 (Ctrl+Shift+P)</translation>
    </message>
    <message>
        <source>Attention &amp;plans</source>
        <translation>어텐션 계획(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Ctrl+Shift+P&lt;/td&gt;&lt;td&gt;trained attention plans and their frontier (F5 reads them again; click a point to open its run)&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;Ctrl+Shift+P&lt;/td&gt;&lt;td&gt;학습된 어텐션 계획과 그 프런티어 (F5로 다시 읽기; 점을 클릭하면 그 실행이 열림)&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
</context>
<context>
    <name>adala::gui::RunProcess</name>
    <message>
        <source>A multi-process run is already running.</source>
        <translation>다중 프로세스 실행이 이미 진행 중입니다.</translation>
    </message>
    <message>
        <source>The experiment is not valid JSON: %1</source>
        <translation>실험 문서가 올바른 JSON이 아닙니다: %1</translation>
    </message>
    <message>
        <source>Cannot write the experiment to a temporary file: %1</source>
        <translation>실험을 임시 파일에 쓸 수 없습니다: %1</translation>
    </message>
    <message>
        <source>unreadable progress line (%1): %2</source>
        <translation>읽을 수 없는 진행 상황 줄 (%1): %2</translation>
    </message>
    <message numerus="yes">
        <source>%n processes</source>
        <translation>
            <numerusform>프로세스 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>finished on %1</source>
        <translation>%1로 완료됨</translation>
    </message>
    <message>
        <source>cancelled on %1; resumable from its last checkpoint</source>
        <translation>%1에서 취소됨. 마지막 체크포인트부터 이어서 실행할 수 있습니다</translation>
    </message>
    <message>
        <source>cancelled before it started</source>
        <translation>시작하기 전에 취소되었습니다</translation>
    </message>
    <message>
        <source>adala run crashed.</source>
        <translation>adala run이 비정상 종료되었습니다.</translation>
    </message>
    <message>
        <source>adala run failed (exit code %1).</source>
        <translation>adala run이 실패했습니다(종료 코드 %1).</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1을(를) 시작할 수 없습니다: %2</translation>
    </message>
</context>
<context>
    <name>adala::gui::ScalingBenchProcess</name>
    <message>
        <source>A benchmark is already running.</source>
        <translation>벤치마크가 이미 실행 중입니다.</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder: %1</source>
        <translation>임시 폴더를 만들 수 없습니다: %1</translation>
    </message>
    <message>
        <source>The benchmark process crashed.</source>
        <translation>벤치마크 프로세스가 비정상 종료되었습니다.</translation>
    </message>
    <message>
        <source>The benchmark failed (exit code %1).</source>
        <translation>벤치마크가 실패했습니다 (종료 코드 %1).</translation>
    </message>
    <message>
        <source>The benchmark wrote no CSV.</source>
        <translation>벤치마크가 CSV를 쓰지 않았습니다.</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1을(를) 시작할 수 없습니다: %2</translation>
    </message>
</context>
<context>
    <name>adala::gui::ScalingPanel</name>
    <message>
        <source>Recording benchmark run #%1…</source>
        <translation>벤치마크 실행 #%1 기록 중…</translation>
    </message>
    <message>
        <source>The benchmark finished but its CSV cannot be read: %1</source>
        <translation>벤치마크는 끝났지만 CSV를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>benchmark run #%1</source>
        <translation>벤치마크 실행 #%1</translation>
    </message>
    <message>
        <source>benchmark (not recorded)</source>
        <translation>벤치마크 (기록되지 않음)</translation>
    </message>
    <message>
        <source>Done: %1 points, recorded as run #%2.</source>
        <translation>완료: 측정 지점 %1개, 실행 #%2로 기록했습니다.</translation>
    </message>
    <message>
        <source>Done: %1 points.</source>
        <translation>완료: 측정 지점 %1개.</translation>
    </message>
    <message>
        <source>Scaling benchmark done.</source>
        <translation>스케일링 벤치마크를 마쳤습니다.</translation>
    </message>
    <message>
        <source>Showing the points measured before it failed.</source>
        <translation>실패하기 전에 측정한 지점을 표시합니다.</translation>
    </message>
    <message>
        <source>Scaling benchmark failed.</source>
        <translation>스케일링 벤치마크가 실패했습니다.</translation>
    </message>
    <message>
        <source>Cancelled. The resolutions measured before are kept in run #%1 and shown.</source>
        <translation>취소했습니다. 그 전에 측정한 해상도는 실행 #%1에 남아 있으며 그래프에 표시합니다.</translation>
    </message>
    <message>
        <source>Cancelled before any resolution was measured.</source>
        <translation>해상도를 하나도 측정하기 전에 취소했습니다.</translation>
    </message>
    <message>
        <source>Scaling benchmark cancelled.</source>
        <translation>스케일링 벤치마크를 취소했습니다.</translation>
    </message>
    <message>
        <source>Running adala bench scaling (%1, %2 resolutions × %3 modes)…</source>
        <translation>adala bench scaling 실행 중 (%1, 해상도 %2개 × 모드 %3개)…</translation>
    </message>
    <message>
        <source>Scaling benchmark running…</source>
        <translation>스케일링 벤치마크 실행 중…</translation>
    </message>
    <message>
        <source>Showing %1.</source>
        <translation>%1을(를) 표시합니다.</translation>
    </message>
    <message>
        <source>Showing benchmark run #%1.</source>
        <translation>벤치마크 실행 #%1을(를) 표시합니다.</translation>
    </message>
    <message>
        <source>Open a benchmark CSV</source>
        <translation>벤치마크 CSV 열기</translation>
    </message>
    <message>
        <source>CSV tables (*.csv);;All files (*)</source>
        <translation>CSV 표 (*.csv);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>benchmark running</source>
        <translation>벤치마크 실행 중</translation>
    </message>
</context>
<context>
    <name>adala::gui::StallMeter</name>
    <message>
        <source>longest gap between %1 ms event-loop ticks: %2 ms (median %3 ms, p99 %4 ms, p99.9 %5 ms; %6 ticks over %7 s)</source>
        <translation>%1 ms 간격 이벤트 루프 틱 사이의 최대 지연: %2 ms (중앙값 %3 ms, p99 %4 ms, p99.9 %5 ms; %7초 동안 틱 %6회)</translation>
    </message>
</context>
<context>
    <name>adala::report_gui::ExportReportDialog</name>
    <message>
        <source>Export report</source>
        <translation>보고서 내보내기</translation>
    </message>
    <message numerus="yes">
        <source>Report of %n run(s): %1</source>
        <translation>
            <numerusform>실행 %n개의 보고서: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>형식:</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>파일:</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>제목:</translation>
    </message>
    <message>
        <source>HTML (one self-contained file)</source>
        <translation>HTML (모든 내용이 담긴 단일 파일)</translation>
    </message>
    <message>
        <source>PDF (print-ready, with contents and page numbers)</source>
        <translation>PDF (인쇄용, 목차와 쪽 번호 포함)</translation>
    </message>
    <message>
        <source>Markdown (figures in a folder beside it)</source>
        <translation>Markdown (그림은 옆 폴더에 저장)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>Open the report when it is written</source>
        <translation>작성이 끝나면 보고서 열기</translation>
    </message>
    <message>
        <source>HTML files (*.html)</source>
        <translation>HTML 파일 (*.html)</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 파일 (*.pdf)</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>Markdown 파일 (*.md)</translation>
    </message>
    <message>
        <source>Choose the file to write.</source>
        <translation>저장할 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>The report could not be written:
%1</source>
        <translation>보고서를 저장할 수 없습니다:
%1</translation>
    </message>
    <message numerus="yes">
        <source>The report was written to %1, with %n problem(s):</source>
        <translation>
            <numerusform>보고서를 %1에 저장했지만 문제 %n건이 있습니다:</numerusform>
        </translation>
    </message>
    <message>
        <source>Select one or more runs to report on first.</source>
        <translation>먼저 보고서에 넣을 실행을 하나 이상 선택하세요.</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
</context>
<context>
    <name>adala::report_gui::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation>시스템 기본값 (%1)</translation>
    </message>
</context>
<context>
    <name>adala::report_gui::LanguageSelector</name>
    <message>
        <source>System default (%1)</source>
        <translation>시스템 기본값 (%1)</translation>
    </message>
    <message>
        <source>Language of the interface and of exported reports</source>
        <translation>화면과 내보낸 보고서에 쓰이는 언어</translation>
    </message>
</context>
<context>
    <name>adala::stages</name>
    <message>
        <source>Stage 0 · teacher pretraining</source>
        <translation>0단계 · 교사 사전 학습</translation>
    </message>
    <message>
        <source>Stage 1 · attention alignment</source>
        <translation>1단계 · 어텐션 정렬</translation>
    </message>
    <message>
        <source>Stage 2 · feature alignment</source>
        <translation>2단계 · 특징 정렬</translation>
    </message>
    <message>
        <source>Stage 3 · fine-tuning</source>
        <translation>3단계 · 미세 조정</translation>
    </message>
</context>
<context>
    <name>adala::widgets</name>
    <message>
        <source>viridis</source>
        <translation>viridis</translation>
    </message>
    <message>
        <source>inferno</source>
        <translation>inferno</translation>
    </message>
    <message>
        <source>magma</source>
        <translation>magma</translation>
    </message>
    <message>
        <source>turbo</source>
        <translation>turbo</translation>
    </message>
    <message>
        <source>jet</source>
        <translation>jet</translation>
    </message>
    <message>
        <source>unknown stage</source>
        <translation>알 수 없는 단계</translation>
    </message>
    <message>
        <source>both right</source>
        <translation>둘 다 맞음</translation>
    </message>
    <message>
        <source>both wrong, same class</source>
        <translation>둘 다 틀림, 같은 클래스</translation>
    </message>
    <message>
        <source>student wrong (teacher right)</source>
        <translation>학생만 틀림 (교사는 맞음)</translation>
    </message>
    <message>
        <source>teacher wrong (student right)</source>
        <translation>교사만 틀림 (학생은 맞음)</translation>
    </message>
    <message>
        <source>both wrong, different classes</source>
        <translation>둘 다 틀림, 다른 클래스</translation>
    </message>
    <message>
        <source>ignored (not labelled)</source>
        <translation>무시됨 (레이블 없음)</translation>
    </message>
</context>
<context>
    <name>adala::widgets::AgreementLegend</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>adala::widgets::AttentionBlocksEditor</name>
    <message>
        <source>Attention of block %1</source>
        <translation>블록 %1의 어텐션</translation>
    </message>
    <message>
        <source>Block %1: %2. Click (or Space) for the next attention: softmax → linear → window+linear.</source>
        <translation>블록 %1: %2. 클릭(또는 Space)하면 다음 어텐션으로 바뀝니다: softmax → linear → window+linear.</translation>
    </message>
</context>
<context>
    <name>adala::widgets::AttentionGridView</name>
    <message>
        <source>computing every block and head…</source>
        <translation>모든 블록과 헤드를 계산하는 중…</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>헤드 %1</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>블록 %1</translation>
    </message>
</context>
<context>
    <name>adala::widgets::AttentionInspector</name>
    <message>
        <source>Checkpoint:</source>
        <translation>체크포인트:</translation>
    </message>
    <message>
        <source>Stage checkpoint whose softmax and linear attention are compared</source>
        <translation>소프트맥스 어텐션과 선형 어텐션을 비교할 단계 체크포인트</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>열기…</translation>
    </message>
    <message>
        <source>Open a .safetensors checkpoint (Ctrl+Shift+O)</source>
        <translation>.safetensors 체크포인트 열기 (Ctrl+Shift+O)</translation>
    </message>
    <message>
        <source>Image:</source>
        <translation>이미지:</translation>
    </message>
    <message>
        <source>Image file</source>
        <translation>이미지 파일</translation>
    </message>
    <message>
        <source>Open image…</source>
        <translation>이미지 열기…</translation>
    </message>
    <message>
        <source>Inspect any image file (Ctrl+I)</source>
        <translation>아무 이미지 파일이나 검사 (Ctrl+I)</translation>
    </message>
    <message>
        <source>Input:</source>
        <translation>입력:</translation>
    </message>
    <message>
        <source>model&apos;s size</source>
        <translation>모델 크기</translation>
    </message>
    <message>
        <source>image&apos;s size</source>
        <translation>이미지 크기</translation>
    </message>
    <message>
        <source>%1 × %1</source>
        <translation>%1 × %1</translation>
    </message>
    <message>
        <source>Resolution the model sees (position embeddings are interpolated)</source>
        <translation>모델이 보는 해상도 (위치 임베딩은 보간됨)</translation>
    </message>
    <message>
        <source>Block:</source>
        <translation>블록:</translation>
    </message>
    <message>
        <source>Transformer block (Page Up / Page Down)</source>
        <translation>트랜스포머 블록 (Page Up / Page Down)</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>헤드:</translation>
    </message>
    <message>
        <source>Attention head (H / Shift+H)</source>
        <translation>어텐션 헤드 (H / Shift+H)</translation>
    </message>
    <message>
        <source>Query = CLS</source>
        <translation>쿼리 = CLS</translation>
    </message>
    <message>
        <source>Use the class (first prefix) token as the query (C)</source>
        <translation>클래스 토큰(첫 번째 접두 토큰)을 쿼리로 사용 (C)</translation>
    </message>
    <message>
        <source>Overlay:</source>
        <translation>오버레이:</translation>
    </message>
    <message>
        <source>Opacity of the attention overlay on the image</source>
        <translation>이미지 위 어텐션 오버레이의 불투명도</translation>
    </message>
    <message>
        <source>Colour map (OpenCV)</source>
        <translation>컬러맵 (OpenCV)</translation>
    </message>
    <message>
        <source>Image (click a patch)</source>
        <translation>이미지 (패치를 클릭하세요)</translation>
    </message>
    <message>
        <source>Softmax attention</source>
        <translation>소프트맥스 어텐션</translation>
    </message>
    <message>
        <source>Linear attention</source>
        <translation>선형 어텐션</translation>
    </message>
    <message>
        <source>|linear − softmax|</source>
        <translation>|선형 − 소프트맥스|</translation>
    </message>
    <message>
        <source>Choose a checkpoint to inspect.</source>
        <translation>검사할 체크포인트를 선택하세요.</translation>
    </message>
    <message>
        <source>forward pass %p%</source>
        <translation>순전파 %p%</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>헤드</translation>
    </message>
    <message>
        <source>KL</source>
        <translation>KL</translation>
    </message>
    <message>
        <source>MSE</source>
        <translation>MSE</translation>
    </message>
    <message>
        <source>KL(softmax ‖ linear) of the two rows</source>
        <translation>두 행의 KL(소프트맥스 ‖ 선형)</translation>
    </message>
    <message>
        <source>Mean squared difference of the two rows</source>
        <translation>두 행의 평균 제곱 차이</translation>
    </message>
    <message>
        <source>Per-head divergence of the two rows for this query; click to pick the head</source>
        <translation>이 쿼리에 대한 두 행의 헤드별 발산; 클릭하면 해당 헤드를 선택합니다</translation>
    </message>
    <message>
        <source>Running the model over the image…</source>
        <translation>이미지에 모델을 실행하는 중…</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>헤드 %1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Rows do not match the image grid.</source>
        <translation>행이 이미지 격자와 맞지 않습니다.</translation>
    </message>
    <message>
        <source>block %1, head %2:  KL(softmax ‖ linear) = %3   ·   MSE = %4   ·   max %5</source>
        <translation>블록 %1, 헤드 %2:  KL(소프트맥스 ‖ 선형) = %3   ·   MSE = %4   ·   최대 %5</translation>
    </message>
    <message>
        <source>   ·   mass on prefix tokens: softmax %1, linear %2</source>
        <translation>   ·   접두 토큰에 실린 비중: 소프트맥스 %1, 선형 %2</translation>
    </message>
    <message>
        <source>Query: none</source>
        <translation>쿼리: 없음</translation>
    </message>
    <message>
        <source>Query: prefix token %1 (token %1 of %2)</source>
        <translation>쿼리: 접두 토큰 %1 (토큰 %2개 중 %1번)</translation>
    </message>
    <message>
        <source>Query: patch (row %1, column %2) = token %3 of %4   —   click a patch or use the arrow keys</source>
        <translation>쿼리: 패치 (%1행, %2열) = 토큰 %4개 중 %3번   —   패치를 클릭하거나 화살표 키를 사용하세요</translation>
    </message>
    <message>
        <source>Dataset item</source>
        <translation>데이터셋 항목</translation>
    </message>
    <message>
        <source>Index in the dataset</source>
        <translation>데이터셋 안의 번호</translation>
    </message>
    <message>
        <source>Where dataset items come from: the checkpoint&apos;s run (its evaluation data), class folders, an image folder, an image list, or Fashion-MNIST&apos;s test split</source>
        <translation>데이터셋 항목의 출처: 체크포인트의 실행(그 평가 데이터), 클래스 폴더, 이미지 폴더, 이미지 목록, 또는 Fashion-MNIST 테스트 분할</translation>
    </message>
    <message>
        <source>The checkpoint&apos;s run (its evaluation data)</source>
        <translation>체크포인트의 실행 (평가 데이터)</translation>
    </message>
    <message>
        <source>Fashion-MNIST test split</source>
        <translation>Fashion-MNIST 테스트 분할</translation>
    </message>
    <message>
        <source>Class folders or an image folder…</source>
        <translation>클래스 폴더 또는 이미지 폴더…</translation>
    </message>
    <message>
        <source>Image list or run config file…</source>
        <translation>이미지 목록 또는 실행 설정 파일…</translation>
    </message>
    <message>
        <source>Fashion-MNIST test</source>
        <translation>Fashion-MNIST 테스트</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>실행 %1</translation>
    </message>
    <message>
        <source>Dataset: %1</source>
        <translation>데이터셋: %1</translation>
    </message>
    <message>
        <source>Fashion-MNIST&apos;s test split</source>
        <translation>Fashion-MNIST 테스트 분할</translation>
    </message>
    <message>
        <source>Precision of the forward pass: float32, or bfloat16 autocast (linear attention&apos;s state and normaliser stay float32)</source>
        <translation>순전파의 정밀도: float32 또는 bfloat16 autocast (선형 어텐션의 상태와 정규화 항은 float32 유지)</translation>
    </message>
    <message>
        <source>%1 · %2 × %3 px, %4 tokens (%5 × %6 patches of %7 px) · forward %8 s (%9)</source>
        <translation>%1 · %2 × %3 px, 토큰 %4개 (%7 px 패치 %5 × %6) · 순전파 %8초 (%9)</translation>
    </message>
    <message>
        <source>How weights map to colours (S): one scale for the three maps, each map on its own 0..max, log10 of the weights (from max / 10⁴ up), or a range you type</source>
        <translation>가중치를 색으로 나타내는 방법 (S): 세 맵에 눈금 하나, 맵마다 자체 0..최대, 가중치의 log10 (최대 / 10⁴부터), 또는 직접 입력한 범위</translation>
    </message>
    <message>
        <source>min..max</source>
        <translation>최소..최대</translation>
    </message>
    <message>
        <source>The fixed colour range, minimum..maximum (Enter applies)</source>
        <translation>고정 색 범위, 최솟값..최댓값 (Enter로 적용)</translation>
    </message>
    <message>
        <source>Colour range not changed: %1</source>
        <translation>색 범위를 바꾸지 않았습니다: %1</translation>
    </message>
    <message>
        <source>Export figure…</source>
        <translation>그림 내보내기…</translation>
    </message>
    <message>
        <source>Save the four panes, their colour scales and a caption as a PNG or PDF figure</source>
        <translation>네 창과 색 눈금, 설명 한 줄을 PNG 또는 PDF 그림으로 저장</translation>
    </message>
    <message>
        <source>Export the inspector&apos;s figure</source>
        <translation>검사기 그림 내보내기</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG 이미지 (*.png);;PDF 문서 (*.pdf)</translation>
    </message>
    <message>
        <source>Figure written to %1</source>
        <translation>그림을 %1에 저장했습니다</translation>
    </message>
    <message>
        <source>prefix token %1</source>
        <translation>접두 토큰 %1</translation>
    </message>
    <message>
        <source>patch (row %1, column %2)</source>
        <translation>패치 (%1행, %2열)</translation>
    </message>
    <message>
        <source>Checkpoint %1 · image %2 (%3 × %4 px input) · block %5, head %6 · query %7 · %8 · KL(softmax ‖ linear) = %9</source>
        <translation>체크포인트 %1 · 이미지 %2 (입력 %3 × %4 px) · 블록 %5, 헤드 %6 · 쿼리 %7 · %8 · KL(소프트맥스 ‖ 선형) = %9</translation>
    </message>
    <message>
        <source>Nothing to export yet.</source>
        <translation>아직 내보낼 것이 없습니다.</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>롤아웃</translation>
    </message>
    <message>
        <source>Show the query&apos;s attention rollout through all blocks (heads averaged, half residual per block) of each path instead of one block and head (R)</source>
        <translation>블록과 헤드 하나 대신 모든 블록을 거친 쿼리의 어텐션 롤아웃(헤드 평균, 블록마다 잔차 절반)을 경로별로 표시 (R)</translation>
    </message>
    <message>
        <source>Blocks × heads…</source>
        <translation>블록 × 헤드…</translation>
    </message>
    <message>
        <source>Every block and head&apos;s map of this query, side by side; click one to select it (G)</source>
        <translation>이 쿼리의 모든 블록과 헤드 맵을 나란히 표시; 클릭하면 그 블록과 헤드를 선택 (G)</translation>
    </message>
    <message>
        <source>Softmax rollout (all blocks)</source>
        <translation>소프트맥스 롤아웃 (모든 블록)</translation>
    </message>
    <message>
        <source>Linear rollout (all blocks)</source>
        <translation>선형 롤아웃 (모든 블록)</translation>
    </message>
    <message>
        <source>|linear − softmax| rollout</source>
        <translation>|선형 − 소프트맥스| 롤아웃</translation>
    </message>
    <message>
        <source>Blocks × heads</source>
        <translation>블록 × 헤드</translation>
    </message>
    <message>
        <source>Path:</source>
        <translation>경로:</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>소프트맥스</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>선형</translation>
    </message>
    <message>
        <source>Each map on its own 0..max. Click a map to show that block and head.</source>
        <translation>맵마다 자체 0..최대 눈금. 맵을 클릭하면 그 블록과 헤드를 표시합니다.</translation>
    </message>
    <message>
        <source>Computing the attention rollout through all blocks…</source>
        <translation>모든 블록을 거친 어텐션 롤아웃을 계산하는 중…</translation>
    </message>
    <message>
        <source>Attention rollout of token %1 through %2 blocks (heads averaged, 0.5 A + 0.5 I per block); the query&apos;s own cell is left out of the colour scale.</source>
        <translation>토큰 %1의 어텐션 롤아웃, 블록 %2개 (헤드 평균, 블록마다 0.5 A + 0.5 I). 쿼리 자신의 칸은 색 눈금에서 뺍니다.</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>Checkpoint %1 · image %2 (%3 × %4 px input) · attention rollout through %5 blocks (heads averaged, 0.5 A + 0.5 I per block) · query %6 · %7</source>
        <translation>체크포인트 %1 · 이미지 %2 (입력 %3 × %4 px) · 블록 %5개를 거친 어텐션 롤아웃 (헤드 평균, 블록마다 0.5 A + 0.5 I) · 쿼리 %6 · %7</translation>
    </message>
    <message>
        <source>Mean:</source>
        <translation>평균:</translation>
    </message>
    <message>
        <source>file&apos;s</source>
        <translation>파일 값</translation>
    </message>
    <message>
        <source>Per-channel values, e.g. 0.5,0.5,0.5 (one value: all channels); empty: the checkpoint&apos;s adala.pretrained_cfg</source>
        <translation>채널별 값, 예: 0.5,0.5,0.5 (값 하나: 모든 채널); 비우면 체크포인트의 adala.pretrained_cfg</translation>
    </message>
    <message>
        <source>Std:</source>
        <translation>표준편차:</translation>
    </message>
</context>
<context>
    <name>adala::widgets::AttentionMsePlot</name>
    <message>
        <source>Logarithmic MSE axis</source>
        <translation>MSE 축 로그 눈금</translation>
    </message>
    <message>
        <source>Log-scale the MSE axes (Ctrl+L)</source>
        <translation>MSE 축을 로그 눈금으로 표시 (Ctrl+L)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>맞추기</translation>
    </message>
    <message>
        <source>Show all data (or double-click a plot)</source>
        <translation>모든 데이터 보기 (또는 그래프를 더블클릭)</translation>
    </message>
    <message>
        <source>Stage 1 · attention MSE per block</source>
        <translation>1단계 · 블록별 어텐션 MSE</translation>
    </message>
    <message>
        <source>step</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>MSE (linear vs softmax attention output)</source>
        <translation>MSE (선형 대 소프트맥스 어텐션 출력)</translation>
    </message>
    <message>
        <source>Final Stage-1 MSE per block</source>
        <translation>블록별 최종 1단계 MSE</translation>
    </message>
    <message>
        <source>block</source>
        <translation>블록</translation>
    </message>
    <message>
        <source>MSE</source>
        <translation>MSE</translation>
    </message>
    <message>
        <source>Stage 2 · feature MSE</source>
        <translation>2단계 · 특징 MSE</translation>
    </message>
    <message>
        <source>MSE (final features)</source>
        <translation>MSE (최종 특징)</translation>
    </message>
    <message>
        <source>live run</source>
        <translation>진행 중인 실행</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>%1 · block %2</source>
        <translation>%1 · 블록 %2</translation>
    </message>
    <message>
        <source>block %1</source>
        <translation>블록 %1</translation>
    </message>
    <message>
        <source>Stage 1 · attention MSE per block (no data yet)</source>
        <translation>1단계 · 블록별 어텐션 MSE (아직 데이터 없음)</translation>
    </message>
    <message>
        <source>Final Stage-1 MSE per block (no data yet)</source>
        <translation>블록별 최종 1단계 MSE (아직 데이터 없음)</translation>
    </message>
    <message>
        <source>Stage 2 · feature MSE (no data yet)</source>
        <translation>2단계 · 특징 MSE (아직 데이터 없음)</translation>
    </message>
    <message>
        <source>No run shown. Start a run or open one from the run list.</source>
        <translation>표시된 실행이 없습니다. 실행을 시작하거나 실행 목록에서 여세요.</translation>
    </message>
    <message>
        <source>Showing: %1</source>
        <translation>표시 중: %1</translation>
    </message>
    <message>
        <source>AdaLA attention MSE</source>
        <translation>AdaLA 어텐션 MSE</translation>
    </message>
    <message>
        <source>no wall times recorded (older runs), not drawn: %1</source>
        <translation>경과 시간이 기록되지 않아(이전 실행) 그리지 않음: %1</translation>
    </message>
</context>
<context>
    <name>adala::widgets::AttentionPlanForm</name>
    <message>
        <source>The method&apos;s attention in every block</source>
        <translation>모든 블록에 방법의 기본 어텐션</translation>
    </message>
    <message>
        <source>Per block</source>
        <translation>블록별</translation>
    </message>
    <message>
        <source>Softmax blocks, one mode for the others</source>
        <translation>softmax 블록 + 나머지는 한 가지 모드</translation>
    </message>
    <message>
        <source>Which attention each block of the student runs (&quot;attention&quot;): softmax, linear or window+linear</source>
        <translation>학생 모델의 각 블록이 실행할 어텐션(&quot;attention&quot;): softmax, linear 또는 window+linear</translation>
    </message>
    <message>
        <source>k of the k × k window of patches around each query that window+linear blocks attend to with softmax (odd)</source>
        <translation>window+linear 블록이 각 쿼리 주변에서 softmax로 주의하는 k × k 패치 창의 k (홀수)</translation>
    </message>
    <message>
        <source>Window &amp;k:</source>
        <translation>창 크기 k(&amp;K):</translation>
    </message>
    <message>
        <source>The blocks that keep the teacher&apos;s softmax attention, from 0, separated by commas</source>
        <translation>교사 모델의 softmax 어텐션을 유지할 블록 (0부터, 쉼표로 구분)</translation>
    </message>
    <message>
        <source>Softmax &amp;blocks:</source>
        <translation>softmax 블록(&amp;B):</translation>
    </message>
    <message>
        <source>the method&apos;s</source>
        <translation>방법의 기본값</translation>
    </message>
    <message>
        <source>The attention of the other blocks (&quot;mode&quot;)</source>
        <translation>나머지 블록의 어텐션(&quot;mode&quot;)</translation>
    </message>
    <message>
        <source>&amp;Others:</source>
        <translation>나머지(&amp;O):</translation>
    </message>
    <message>
        <source>The model&apos;s depth is not known here (it comes from the teacher&apos;s weights): choose a model preset to set each block.</source>
        <translation>여기서는 모델의 블록 수를 알 수 없습니다(교사 가중치에서 정해집니다): 블록별로 정하려면 모델 프리셋을 선택하세요.</translation>
    </message>
    <message numerus="yes">
        <source>%n block(s): %1</source>
        <translation>
            <numerusform>블록 %n개: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>⚠ %1: %2</source>
        <translation>⚠ %1: %2</translation>
    </message>
</context>
<context>
    <name>adala::widgets::ClassLegend</name>
    <message>
        <source>Class</source>
        <translation>클래스</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>교사</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>학생</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>Teacher IoU of the class</source>
        <translation>클래스의 교사 IoU</translation>
    </message>
    <message>
        <source>Student IoU of the class</source>
        <translation>클래스의 학생 IoU</translation>
    </message>
    <message>
        <source>Student IoU − teacher IoU</source>
        <translation>학생 IoU − 교사 IoU</translation>
    </message>
    <message>
        <source>Per-class IoU of the teacher (blue bars) and the student (orange bars)</source>
        <translation>교사(파란 막대)와 학생(주황 막대)의 클래스별 IoU</translation>
    </message>
    <message>
        <source>class %1: %2 (%3)</source>
        <translation>클래스 %1: %2 (%3)</translation>
    </message>
</context>
<context>
    <name>adala::widgets::DataSourceForm</name>
    <message>
        <source>Other source per stage</source>
        <translation>단계별 다른 데이터 소스</translation>
    </message>
    <message>
        <source>Off: the training source also serves evaluation and Stages 1-2 (data.train)</source>
        <translation>끄면: 학습 소스를 평가와 1-2단계에도 사용 (data.train)</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>소스</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>이미지 수</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>학습</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>평가</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>정렬</translation>
    </message>
    <message>
        <source>Stage 0 and Stage 3 training (data.train)</source>
        <translation>0단계와 3단계 학습 (data.train)</translation>
    </message>
    <message>
        <source>Every top-1 evaluation (data.eval)</source>
        <translation>모든 top-1 평가 (data.eval)</translation>
    </message>
    <message>
        <source>Stages 1-2, labels unused (data.alignment)</source>
        <translation>1-2단계, 레이블 사용 안 함 (data.alignment)</translation>
    </message>
    <message>
        <source>fashion-mnist: the idx files; image-folder: one sub-folder per class; image-list: a folder of images or a path&lt;TAB&gt;label file</source>
        <translation>fashion-mnist: idx 파일; image-folder: 클래스마다 하위 폴더 하나; image-list: 이미지 폴더 또는 path&lt;TAB&gt;label 파일</translation>
    </message>
    <message>
        <source>Choose a folder</source>
        <translation>폴더 선택</translation>
    </message>
    <message>
        <source>all</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>as training</source>
        <translation>학습과 같음</translation>
    </message>
    <message>
        <source>Use N images of this source (0 or empty: all; an image-folder takes the classes in turn)</source>
        <translation>이 소스의 이미지 N개 사용 (0 또는 비움: 전체; image-folder는 클래스를 번갈아 선택)</translation>
    </message>
    <message>
        <source>Decode threads</source>
        <translation>디코딩 스레드</translation>
    </message>
    <message>
        <source>Threads decoding images ahead of the step (0: in the training thread)</source>
        <translation>스텝보다 앞서 이미지를 디코딩하는 스레드 (0: 학습 스레드에서)</translation>
    </message>
    <message>
        <source>Bad image</source>
        <translation>손상된 이미지</translation>
    </message>
    <message>
        <source>An unreadable image: stop the run naming the file (error), or skip it and count it in the log (skip)</source>
        <translation>읽을 수 없는 이미지: 파일 이름과 함께 실행 중단 (error), 또는 건너뛰고 로그에 집계 (skip)</translation>
    </message>
    <message>
        <source>Choose the images folder</source>
        <translation>이미지 폴더 선택</translation>
    </message>
    <message>
        <source>the installed Fashion-MNIST</source>
        <translation>설치된 Fashion-MNIST</translation>
    </message>
    <message>
        <source>class folders root</source>
        <translation>클래스 폴더의 상위 폴더</translation>
    </message>
    <message>
        <source>folder or list file</source>
        <translation>폴더 또는 목록 파일</translation>
    </message>
    <message>
        <source>Folder of the idx files (empty: the installed copy)</source>
        <translation>idx 파일 폴더 (비움: 설치된 사본)</translation>
    </message>
    <message>
        <source>Folder with one sub-folder of images per class (ImageNet layout)</source>
        <translation>클래스마다 이미지 하위 폴더가 있는 폴더 (ImageNet 구조)</translation>
    </message>
    <message>
        <source>A folder of images (no labels) or a text file of path or path&lt;TAB&gt;label lines</source>
        <translation>이미지 폴더 (레이블 없음) 또는 path 또는 path&lt;TAB&gt;label 줄의 텍스트 파일</translation>
    </message>
    <message>
        <source>⚠ %1: %2</source>
        <translation>⚠ %1: %2</translation>
    </message>
    <message>
        <source>Side (px)</source>
        <translation>한 변 (px)</translation>
    </message>
    <message>
        <source>model&apos;s</source>
        <translation>모델 기본값</translation>
    </message>
    <message>
        <source>The side of this stage&apos;s input in pixels (data.%1.res), a multiple of the patch size; empty: the model&apos;s img_size</source>
        <translation>이 단계 입력의 한 변 길이(픽셀, data.%1.res), 패치 크기의 배수; 비우면 모델의 img_size</translation>
    </message>
</context>
<context>
    <name>adala::widgets::FeatureView</name>
    <message>
        <source>cosine</source>
        <translation>코사인</translation>
    </message>
    <message>
        <source>≤ 0</source>
        <translation>≤ 0</translation>
    </message>
    <message>
        <source>Open a run (run list) to compare its teacher&apos;s and student&apos;s features.</source>
        <translation>교사와 학생의 특징을 비교하려면 실행 목록에서 실행을 여세요.</translation>
    </message>
    <message>
        <source>Image:</source>
        <translation>이미지:</translation>
    </message>
    <message>
        <source>An image of the run&apos;s evaluation data, by index</source>
        <translation>실행 평가 데이터의 이미지 (인덱스로 선택)</translation>
    </message>
    <message>
        <source>Image index</source>
        <translation>이미지 인덱스</translation>
    </message>
    <message>
        <source>Image file…</source>
        <translation>이미지 파일…</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>입력</translation>
    </message>
    <message>
        <source>Teacher PCA (softmax)</source>
        <translation>교사 PCA (softmax)</translation>
    </message>
    <message>
        <source>Student PCA (linear)</source>
        <translation>학생 PCA (linear)</translation>
    </message>
    <message>
        <source>Cosine similarity per patch</source>
        <translation>패치별 코사인 유사도</translation>
    </message>
    <message>
        <source>PCA fitted on the teacher&apos;s final patch features and applied to both; RGB = PC1, PC2, PC3 on the teacher&apos;s range, so equal colours mean equal projections.</source>
        <translation>PCA는 교사의 최종 패치 특징으로 맞추고 양쪽에 적용합니다. RGB = 교사 범위 기준의 PC1, PC2, PC3이므로 같은 색은 같은 투영을 뜻합니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Resolution sweep&lt;/b&gt;</source>
        <translation>&lt;b&gt;해상도 스윕&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Scales:</source>
        <translation>배율:</translation>
    </message>
    <message>
        <source>Multiples of the training resolution</source>
        <translation>학습 해상도의 배수</translation>
    </message>
    <message>
        <source>Images:</source>
        <translation>이미지 수:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>The first N evaluation images (all: the whole set)</source>
        <translation>평가 이미지의 처음 N장 (전체: 전체 집합)</translation>
    </message>
    <message>
        <source>Run resolution sweep</source>
        <translation>해상도 스윕 실행</translation>
    </message>
    <message>
        <source>input resolution (pixels per side)</source>
        <translation>입력 해상도 (한 변의 픽셀 수)</translation>
    </message>
    <message>
        <source>top-1 (%)</source>
        <translation>top-1 (%)</translation>
    </message>
    <message>
        <source>Resolution sweep running…</source>
        <translation>해상도 스윕 실행 중…</translation>
    </message>
    <message>
        <source>Run %1 has no folder: nothing to compare.</source>
        <translation>실행 %1에 폴더가 없어 비교할 것이 없습니다.</translation>
    </message>
    <message>
        <source>Run %1 (%2)</source>
        <translation>실행 %1 (%2)</translation>
    </message>
    <message>
        <source>Computing the features of %1…</source>
        <translation>%1의 특징을 계산하는 중…</translation>
    </message>
    <message>
        <source>item %1</source>
        <translation>항목 %1</translation>
    </message>
    <message>
        <source>%1 · %2x%3 patches · teacher %4 · student %5</source>
        <translation>%1 · 패치 %2x%3 · 교사 %4 · 학생 %5</translation>
    </message>
    <message>
        <source>Mean cosine similarity (teacher vs student): %1   (lowest patch %2)</source>
        <translation>평균 코사인 유사도 (교사 대 학생): %1   (최저 패치 %2)</translation>
    </message>
    <message>
        <source>PC%1 %2%</source>
        <translation>PC%1 %2%</translation>
    </message>
    <message>
        <source>Teacher PCA explained variance ratio: %1 (%2% in all)</source>
        <translation>교사 PCA 설명 분산 비율: %1 (합계 %2%)</translation>
    </message>
    <message numerus="yes">
        <source>Top-1 on %n evaluation image(s) at each resolution.</source>
        <translation>
            <numerusform>각 해상도에서 평가 이미지 %n장의 top-1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Resolution sweep running… %1%</source>
        <translation>해상도 스윕 실행 중… %1%</translation>
    </message>
    <message>
        <source>teacher (softmax)</source>
        <translation>교사 (softmax)</translation>
    </message>
    <message>
        <source>student (linear)</source>
        <translation>학생 (linear)</translation>
    </message>
</context>
<context>
    <name>adala::widgets::HealthHeatmap</name>
    <message>
        <source>Stage:</source>
        <translation>단계:</translation>
    </message>
    <message>
        <source>The stage whose health metrics are shown</source>
        <translation>수치 안정성 지표를 표시할 단계</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>지표:</translation>
    </message>
    <message>
        <source>smallest linear-attention normaliser</source>
        <translation>선형 어텐션 정규화 값의 최솟값</translation>
    </message>
    <message>
        <source>share of normalisers below the threshold</source>
        <translation>임계값보다 작은 정규화 값의 비율</translation>
    </message>
    <message>
        <source>largest |activation|</source>
        <translation>|활성값|의 최댓값</translation>
    </message>
    <message>
        <source>non-finite attention outputs</source>
        <translation>유한하지 않은 어텐션 출력 수</translation>
    </message>
    <message>
        <source>non-finite block outputs</source>
        <translation>유한하지 않은 블록 출력 수</translation>
    </message>
    <message>
        <source>non-finite gradients</source>
        <translation>유한하지 않은 그래디언트 수</translation>
    </message>
    <message>
        <source>The health metric shown per block and step; cells with non-finite values (attention, block output or gradient) are outlined in red</source>
        <translation>블록과 스텝별로 표시할 수치 안정성 지표. 유한하지 않은 값(어텐션, 블록 출력 또는 그래디언트)이 있는 칸은 빨간 테두리로 표시됩니다</translation>
    </message>
    <message>
        <source>Numerical health per block</source>
        <translation>블록별 수치 안정성</translation>
    </message>
    <message>
        <source>step</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>block</source>
        <translation>블록</translation>
    </message>
    <message>
        <source> (log scale)</source>
        <translation> (로그 눈금)</translation>
    </message>
    <message>
        <source>No health metrics recorded for this run.</source>
        <translation>이 실행에는 기록된 수치 안정성 지표가 없습니다.</translation>
    </message>
    <message>
        <source>No health metrics for this stage.</source>
        <translation>이 단계에는 수치 안정성 지표가 없습니다.</translation>
    </message>
    <message>
        <source>%1 blocks × %2 steps (%3 – %4); %5 cells with non-finite values</source>
        <translation>블록 %1개 × 스텝 %2개 (%3 – %4), 유한하지 않은 값이 있는 칸 %5개</translation>
    </message>
    <message>
        <source>no value recorded</source>
        <translation>기록된 값 없음</translation>
    </message>
    <message>
        <source>block %1, step %2
%3: %4</source>
        <translation>블록 %1, 스텝 %2
%3: %4</translation>
    </message>
    <message>
        <source>alignment MSE (Stage 1 attention output, Stage 2 hidden state)</source>
        <translation>정렬 MSE (1단계 어텐션 출력, 2단계 은닉 상태)</translation>
    </message>
    <message>
        <source>all stages (one step axis)</source>
        <translation>모든 단계 (하나의 스텝 축)</translation>
    </message>
    <message>
        <source>Alignment MSE per block</source>
        <translation>블록별 정렬 MSE</translation>
    </message>
    <message>
        <source>global step (stages one after another)</source>
        <translation>전체 스텝 (단계를 차례로 이어서)</translation>
    </message>
</context>
<context>
    <name>adala::widgets::ImagePane</name>
    <message>
        <source>no image</source>
        <translation>이미지 없음</translation>
    </message>
</context>
<context>
    <name>adala::widgets::JobStatus</name>
    <message>
        <source>queued</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>일시 정지됨</translation>
    </message>
    <message>
        <source>done</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>중단됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
</context>
<context>
    <name>adala::widgets::PlanFrontierView</name>
    <message>
        <source>The planning session (the folder of one `adala plan` run)</source>
        <translation>계획 세션 (`adala plan` 한 번 실행의 폴더)</translation>
    </message>
    <message>
        <source>The input side at which every plan shown has a cost</source>
        <translation>표시된 모든 계획에 비용이 있는 입력 한 변 크기</translation>
    </message>
    <message>
        <source>ms / image</source>
        <translation>ms / 이미지</translation>
    </message>
    <message>
        <source>Peak memory (MB)</source>
        <translation>최대 메모리 (MB)</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>새로 고침</translation>
    </message>
    <message>
        <source>Read the database again (F5)</source>
        <translation>데이터베이스 다시 읽기 (F5)</translation>
    </message>
    <message>
        <source>&amp;Session:</source>
        <translation>세션(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;Resolution:</source>
        <translation>해상도(&amp;R):</translation>
    </message>
    <message>
        <source>Cost:</source>
        <translation>비용:</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>계획</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>세션</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>블록</translation>
    </message>
    <message>
        <source>Top-1 (%)</source>
        <translation>Top-1 (%)</translation>
    </message>
    <message>
        <source>Gap to teacher (pt)</source>
        <translation>교사와의 차이 (pt)</translation>
    </message>
    <message>
        <source>Peak MB</source>
        <translation>최대 MB</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Frontier</source>
        <translation>프런티어</translation>
    </message>
    <message>
        <source>Double-click a plan (or press Enter) to open its run</source>
        <translation>계획을 더블클릭(또는 Enter)하면 그 실행이 열립니다</translation>
    </message>
    <message>
        <source>plans</source>
        <translation>계획</translation>
    </message>
    <message>
        <source>frontier</source>
        <translation>프런티어</translation>
    </message>
    <message>
        <source>top-1 (%)</source>
        <translation>top-1 (%)</translation>
    </message>
    <message>
        <source>No trained attention plans in this run database.

Train some with
    adala plan CONFIG --res R --train
(each plan&apos;s top-1 and its cost at R px are recorded here), then refresh (F5).</source>
        <translation>이 실행 데이터베이스에 학습된 어텐션 계획이 없습니다.

다음으로 학습하세요
    adala plan CONFIG --res R --train
(각 계획의 top-1과 R px에서의 비용이 여기에 기록됩니다), 그다음 새로 고침(F5).</translation>
    </message>
    <message>
        <source>All sessions</source>
        <translation>모든 세션</translation>
    </message>
    <message>
        <source>Cannot read the run database %1:
%2</source>
        <translation>실행 데이터베이스 %1을(를) 읽을 수 없습니다:
%2</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>%1 (run %2): %3, top-1 %4%</source>
        <translation>%1 (실행 %2): %3, top-1 %4%</translation>
    </message>
    <message>
        <source>On the accuracy-cost frontier</source>
        <translation>정확도-비용 프런티어 위</translation>
    </message>
    <message>
        <source>ms / image at %1 px</source>
        <translation>%1 px에서 ms / 이미지</translation>
    </message>
    <message>
        <source>peak memory (MB) at %1 px</source>
        <translation>%1 px에서 최대 메모리 (MB)</translation>
    </message>
    <message>
        <source>○ plan (click: open its run)</source>
        <translation>○ 계획 (클릭: 그 실행 열기)</translation>
    </message>
    <message>
        <source>every session</source>
        <translation>모든 세션</translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) of %1. They share no resolution at which each has a cost: measure them with adala plan CONFIG --res R.</source>
        <translation>
            <numerusform>%1의 계획 %n개. 모든 계획에 비용이 있는 공통 해상도가 없습니다: adala plan CONFIG --res R 로 측정하세요.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) of %1 at %2 px. Frontier, cheapest first: %3</source>
        <translation>
            <numerusform>%2 px에서 %1의 계획 %n개. 프런티어, 저렴한 순: %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Click to open the run.</source>
        <translation>클릭하면 실행이 열립니다.</translation>
    </message>
</context>
<context>
    <name>adala::widgets::PlotHover</name>
    <message>
        <source>%1
%2
value %3%4</source>
        <translation>%1
%2
값 %3%4</translation>
    </message>
</context>
<context>
    <name>adala::widgets::RunBrowser</name>
    <message>
        <source>Filter runs (name, tag, status…)</source>
        <translation>실행 필터 (이름, 태그, 상태…)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>Show only runs with this status</source>
        <translation>이 상태의 실행만 표시</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>최고</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>태그</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>생성 시각</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
    <message>
        <source>Show the run&apos;s plots and checkpoints (double-click a run)</source>
        <translation>실행의 그래프와 체크포인트 보기 (실행을 더블클릭)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Overlay the selected runs&apos; plots (select two or more)</source>
        <translation>선택한 실행들의 그래프 겹쳐 보기 (두 개 이상 선택)</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>이어서 실행</translation>
    </message>
    <message>
        <source>Continue an interrupted run from its last checkpoint</source>
        <translation>중단된 실행을 마지막 체크포인트부터 계속</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>새로 고침</translation>
    </message>
    <message>
        <source>Read the database again (F5)</source>
        <translation>데이터베이스 다시 읽기 (F5)</translation>
    </message>
    <message>
        <source>No run database yet at %1: it is created by the first run.</source>
        <translation>%1에 아직 실행 데이터베이스가 없습니다: 첫 실행 때 만들어집니다.</translation>
    </message>
    <message>
        <source>%1 %2 (%3/%4)</source>
        <translation>%1 %2 (%3/%4)</translation>
    </message>
    <message>
        <source>top-1 %1% (%2)</source>
        <translation>top-1 %1% (%2)</translation>
    </message>
    <message>
        <source>stage-1 MSE %1</source>
        <translation>1단계 MSE %1</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message numerus="yes">
        <source>benchmark · %n point(s)</source>
        <translation>
            <numerusform>벤치마크 · 지점 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Open it to see the scaling plots</source>
        <translation>열면 스케일링 그래프를 볼 수 있습니다</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>이름 바꾸기…</translation>
    </message>
    <message>
        <source>Tags…</source>
        <translation>태그…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+T</source>
        <translation>Ctrl+Shift+T</translation>
    </message>
    <message>
        <source>Notes…</source>
        <translation>메모…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+N</source>
        <translation>Ctrl+Shift+N</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>삭제…</translation>
    </message>
    <message>
        <source>%1 · stage status: %2</source>
        <translation>%1 · 단계 상태: %2</translation>
    </message>
    <message>
        <source>Rename run %1</source>
        <translation>실행 %1 이름 바꾸기</translation>
    </message>
    <message>
        <source>New name (its folder keeps its own):</source>
        <translation>새 이름 (폴더 이름은 그대로 둡니다):</translation>
    </message>
    <message>
        <source>Tags of run %1</source>
        <translation>실행 %1의 태그</translation>
    </message>
    <message>
        <source>Tags, separated by commas:</source>
        <translation>쉼표로 구분한 태그:</translation>
    </message>
    <message>
        <source>Notes of run %1</source>
        <translation>실행 %1의 메모</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>메모:</translation>
    </message>
    <message>
        <source>Delete run %1</source>
        <translation>실행 %1 삭제</translation>
    </message>
    <message>
        <source>Delete run %1 (%2) from the database, with its checkpoints and weights on disk? This cannot be undone.</source>
        <translation>실행 %1 (%2)을(를) 데이터베이스에서 삭제하고 디스크의 체크포인트와 가중치도 지울까요? 되돌릴 수 없습니다.</translation>
    </message>
    <message>
        <source>The list shows the runs as last read.</source>
        <translation>목록은 마지막으로 읽은 실행을 보여 줍니다.</translation>
    </message>
    <message>
        <source>Trying again in a moment (F5 to retry now).</source>
        <translation>잠시 후 다시 시도합니다(지금 다시 읽으려면 F5).</translation>
    </message>
</context>
<context>
    <name>adala::widgets::RunCompareTable</name>
    <message>
        <source>Show every config key</source>
        <translation>모든 설정 키 표시</translation>
    </message>
    <message>
        <source>Off: only the config keys whose values differ between the runs</source>
        <translation>끄면: 실행 간에 값이 다른 설정 키만 표시</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Select two or more runs in the run list and press Compare.</source>
        <translation>실행 목록에서 둘 이상의 실행을 선택하고 비교를 누르세요.</translation>
    </message>
    <message>
        <source>Comparing runs %1</source>
        <translation>실행 %1 비교</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>Teacher top-1</source>
        <translation>교사 top-1</translation>
    </message>
    <message>
        <source>not evaluated</source>
        <translation>평가 안 됨</translation>
    </message>
    <message>
        <source>Student top-1</source>
        <translation>학생 top-1</translation>
    </message>
    <message>
        <source>Gap (student − teacher)</source>
        <translation>차이 (학생 − 교사)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>방법</translation>
    </message>
    <message>
        <source>Feature map</source>
        <translation>특징 맵</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Run time</source>
        <translation>실행 시간</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>%1 · wall time</source>
        <translation>%1 · 경과 시간</translation>
    </message>
    <message>
        <source>%1 · compute time</source>
        <translation>%1 · 계산 시간</translation>
    </message>
    <message>
        <source>%1 · final loss</source>
        <translation>%1 · 최종 손실</translation>
    </message>
    <message>
        <source>Config (every key; differing values highlighted)</source>
        <translation>설정 (모든 키, 다른 값은 강조 표시)</translation>
    </message>
    <message>
        <source>Config (only the keys that differ)</source>
        <translation>설정 (값이 다른 키만)</translation>
    </message>
    <message>
        <source>The runs&apos; configs are the same.</source>
        <translation>실행들의 설정이 같습니다.</translation>
    </message>
</context>
<context>
    <name>adala::widgets::RunSummaryPanel</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 pt</source>
        <translation>%1%p</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1분 %2초</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1시간 %2분</translation>
    </message>
    <message>
        <source>Cannot read run %1: %2</source>
        <translation>실행 %1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Teacher top-1 (softmax attention)</source>
        <translation>교사 top-1 (소프트맥스 어텐션)</translation>
    </message>
    <message>
        <source>Student top-1 (linear attention)</source>
        <translation>학생 top-1 (선형 어텐션)</translation>
    </message>
    <message>
        <source>Gap (student − teacher)</source>
        <translation>차이 (학생 − 교사)</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>경과 시간</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>계산 시간</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>유휴 시간</translation>
    </message>
    <message>
        <source>Final loss</source>
        <translation>최종 손실</translation>
    </message>
    <message>
        <source>Final lr</source>
        <translation>최종 학습률</translation>
    </message>
    <message>
        <source>Train accuracy</source>
        <translation>학습 정확도</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>키</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>No run open</source>
        <translation>열린 실행 없음</translation>
    </message>
    <message>
        <source>Open a run in the run list (double-click) to see its summary; select two or more and press Compare to compare them.</source>
        <translation>실행 목록에서 실행을 열면(더블클릭) 요약이 표시됩니다. 둘 이상을 선택하고 비교를 누르면 비교합니다.</translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>status: %1</source>
        <translation>상태: %1</translation>
    </message>
    <message>
        <source>device: %1</source>
        <translation>장치: %1</translation>
    </message>
    <message>
        <source>method: %1</source>
        <translation>방법: %1</translation>
    </message>
    <message>
        <source>feature map: %1 (default)</source>
        <translation>특징 맵: %1 (기본값)</translation>
    </message>
    <message>
        <source>feature map: %1</source>
        <translation>특징 맵: %1</translation>
    </message>
    <message>
        <source>model: %1</source>
        <translation>모델: %1</translation>
    </message>
    <message>
        <source>run time: %1</source>
        <translation>실행 시간: %1</translation>
    </message>
    <message>
        <source>version: %1</source>
        <translation>버전: %1</translation>
    </message>
    <message>
        <source>not evaluated</source>
        <translation>평가 안 됨</translation>
    </message>
    <message>
        <source>teacher/top1 in the run&apos;s evaluations</source>
        <translation>실행 평가의 teacher/top1</translation>
    </message>
    <message>
        <source>The run has no student evaluation (fine_tuning/top1).</source>
        <translation>이 실행에는 학생 평가(fine_tuning/top1)가 없습니다.</translation>
    </message>
    <message>
        <source>%1 in the run&apos;s evaluations</source>
        <translation>실행 평가의 %1</translation>
    </message>
    <message>
        <source>100 × (student top-1 − teacher top-1), in percentage points</source>
        <translation>100 × (학생 top-1 − 교사 top-1), 퍼센트포인트 단위</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Tags: %1</source>
        <translation>태그: %1</translation>
    </message>
    <message>
        <source>Notes: %1</source>
        <translation>메모: %1</translation>
    </message>
    <message>
        <source>Wall time: from the stage&apos;s start to its end, pauses included. Compute: the time it trained; idle: the rest (paused, or between a cancel and the resume). Final loss, lr and training accuracy: the last logged step.</source>
        <translation>경과 시간: 단계 시작부터 끝까지 (일시 정지 포함). 계산 시간: 실제로 학습한 시간, 유휴 시간: 나머지 (일시 정지, 또는 취소와 재개 사이). 최종 손실, 학습률, 학습 정확도: 마지막으로 기록된 스텝의 값.</translation>
    </message>
    <message>
        <source>method: %1 (default)</source>
        <translation>방법: %1 (기본값)</translation>
    </message>
</context>
<context>
    <name>adala::widgets::ScalingData</name>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>%1 holds no benchmark points.</source>
        <translation>%1에 벤치마크 지점이 없습니다.</translation>
    </message>
    <message>
        <source>There is no run %1 in %2.</source>
        <translation>%2에 실행 %1이(가) 없습니다.</translation>
    </message>
    <message>
        <source>Run %1 holds no resolution-scaling points (yet).</source>
        <translation>실행 %1에는 (아직) 해상도 스케일링 지점이 없습니다.</translation>
    </message>
    <message>
        <source>Run %1 is a training run, not a benchmark run.</source>
        <translation>실행 %1은(는) 벤치마크 실행이 아니라 학습 실행입니다.</translation>
    </message>
    <message>
        <source>Enter at least one resolution, e.g. 224,448,1024.</source>
        <translation>해상도를 하나 이상 입력하세요 (예: 224,448,1024).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number of pixels (e.g. 224,448,1024).</source>
        <translation>&quot;%1&quot;은(는) 픽셀 단위의 정수가 아닙니다 (예: 224,448,1024).</translation>
    </message>
    <message>
        <source>%1 px is out of range: resolutions go from %2 to %3 px.</source>
        <translation>%1 px는 범위를 벗어났습니다: 해상도는 %2 ~ %3 px입니다.</translation>
    </message>
    <message>
        <source>%1 px is listed twice.</source>
        <translation>%1 px가 두 번 들어 있습니다.</translation>
    </message>
    <message>
        <source>unsteady: a point&apos;s matmul rate moved by more than 25 %</source>
        <translation>불안정: 한 지점의 행렬곱 속도가 25 % 넘게 변했습니다</translation>
    </message>
</context>
<context>
    <name>adala::widgets::ScalingForm</name>
    <message>
        <source>Resolution scaling benchmark</source>
        <translation>해상도 스케일링 벤치마크</translation>
    </message>
    <message>
        <source>The ViT to measure (random weights: speed and memory do not depend on them)</source>
        <translation>측정할 ViT (무작위 가중치: 속도와 메모리는 가중치와 무관합니다)</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>모델(&amp;M):</translation>
    </message>
    <message>
        <source>Square input sides in pixels, separated by commas, from %1 to %2</source>
        <translation>정사각형 입력의 한 변 길이(픽셀)를 쉼표로 구분해 입력, %1 ~ %2</translation>
    </message>
    <message>
        <source>Runs adala bench scaling in a separate process; each point in a fresh child process</source>
        <translation>adala bench scaling을 별도 프로세스로 실행합니다. 각 지점은 새 자식 프로세스에서 측정합니다</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop the benchmark (resolutions already measured stay in the run database)</source>
        <translation>벤치마크 중지 (이미 측정한 해상도는 실행 데이터베이스에 남습니다)</translation>
    </message>
    <message>
        <source>Attention:</source>
        <translation>어텐션:</translation>
    </message>
    <message>
        <source>Plain softmax attention: holds the N × N scores</source>
        <translation>일반 softmax 어텐션: N × N 점수를 모두 메모리에 둡니다</translation>
    </message>
    <message>
        <source>Exact softmax computed in query chunks: the memory-lean baseline</source>
        <translation>쿼리 묶음 단위로 계산하는 정확한 softmax: 메모리를 아끼는 기준선</translation>
    </message>
    <message>
        <source>ELU+1 linear attention: O(N) in the tokens</source>
        <translation>ELU+1 선형 어텐션: 토큰 수에 대해 O(N)</translation>
    </message>
    <message>
        <source>Benchmark runs recorded in the run database</source>
        <translation>실행 데이터베이스에 기록된 벤치마크 실행</translation>
    </message>
    <message>
        <source>&amp;Open run</source>
        <translation>실행 열기(&amp;O)</translation>
    </message>
    <message>
        <source>Open &amp;CSV…</source>
        <translation>CSV 열기(&amp;C)…</translation>
    </message>
    <message>
        <source>A CSV written by adala bench scaling --csv FILE</source>
        <translation>adala bench scaling --csv FILE로 만든 CSV</translation>
    </message>
    <message>
        <source>&amp;Earlier results:</source>
        <translation>이전 결과(&amp;E):</translation>
    </message>
    <message>
        <source>Choose a model.</source>
        <translation>모델을 고르세요.</translation>
    </message>
    <message>
        <source>Resolutions: %1</source>
        <translation>해상도: %1</translation>
    </message>
    <message>
        <source>Choose at least one attention mode.</source>
        <translation>어텐션 모드를 하나 이상 고르세요.</translation>
    </message>
    <message>
        <source>#%1 %2 (%3, %4)</source>
        <translation>#%1 %2 (%3, %4)</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>시작 중…</translation>
    </message>
    <message>
        <source>%1 of %2 points</source>
        <translation>%2개 중 %1개 지점</translation>
    </message>
    <message>
        <source>%1 of %2 · %3</source>
        <translation>%2개 중 %1개 · %3</translation>
    </message>
    <message>
        <source>Re&amp;solutions:</source>
        <translation>해상도(&amp;S):</translation>
    </message>
    <message>
        <source>R&amp;un benchmark</source>
        <translation>벤치마크 실행(&amp;U)</translation>
    </message>
    <message>
        <source>Images per forward pass (adala bench scaling --batch): 1 measures latency; training runs at 32-256, where a GPU is no longer launch-bound</source>
        <translation>순전파 한 번의 이미지 수 (adala bench scaling --batch): 1은 지연 시간을 잽니다; 학습은 32-256에서 돌며, 그때 GPU는 더 이상 실행 호출에 묶이지 않습니다</translation>
    </message>
    <message>
        <source>&amp;Batch:</source>
        <translation>배치(&amp;B):</translation>
    </message>
    <message>
        <source>Every block window+linear: softmax on the k × k window of patches around each query, linear attention on the other keys (the window&apos;s k below)</source>
        <translation>모든 블록 window+linear: 각 쿼리 주변 k × k 패치 창에는 softmax, 나머지 키에는 linear 어텐션 (창의 k는 아래에서)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>softmax blocks, the others linear</source>
        <translation>softmax 블록, 나머지는 linear</translation>
    </message>
    <message>
        <source>per block</source>
        <translation>블록별</translation>
    </message>
    <message>
        <source>Also measure a hybrid student (the &quot;plan&quot; mode): some blocks softmax, the others linear (--softmax-blocks), or each block&apos;s attention chosen (--plan)</source>
        <translation>혼합 학생 모델도 측정합니다(&quot;plan&quot; 모드): 일부 블록은 softmax, 나머지는 linear(--softmax-blocks), 또는 블록마다 어텐션 선택(--plan)</translation>
    </message>
    <message>
        <source>&amp;Hybrid plan:</source>
        <translation>혼합 계획(&amp;H):</translation>
    </message>
    <message>
        <source>Softmax blocks</source>
        <translation>softmax 블록</translation>
    </message>
    <message>
        <source>The blocks that stay softmax, from 0, separated by commas; the others run linear attention</source>
        <translation>softmax로 남길 블록 (0부터, 쉼표로 구분); 나머지는 linear 어텐션을 실행합니다</translation>
    </message>
    <message>
        <source>k of the k × k window of window+linear attention (--window; odd)</source>
        <translation>window+linear 어텐션의 k × k 창의 k (--window; 홀수)</translation>
    </message>
    <message>
        <source>&amp;Window k:</source>
        <translation>창 크기 k(&amp;W):</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a block number</source>
        <translation>&quot;%1&quot;은(는) 블록 번호가 아닙니다</translation>
    </message>
    <message>
        <source>block %1 is not in 0..%2 (%3 has %4 blocks)</source>
        <translation>블록 %1은(는) 0..%2 범위에 없습니다 (%3의 블록 수는 %4)</translation>
    </message>
    <message>
        <source>block %1 is listed twice</source>
        <translation>블록 %1이(가) 두 번 나옵니다</translation>
    </message>
    <message>
        <source>Softmax blocks: %1</source>
        <translation>softmax 블록: %1</translation>
    </message>
    <message>
        <source>Softmax blocks: give the blocks that stay softmax, e.g. 0,11.</source>
        <translation>softmax 블록: softmax로 남길 블록을 입력하세요 (예: 0,11).</translation>
    </message>
    <message>
        <source>Per-block plan: the blocks of %1 are not known.</source>
        <translation>블록별 계획: %1의 블록을 알 수 없습니다.</translation>
    </message>
</context>
<context>
    <name>adala::widgets::ScalingView</name>
    <message>
        <source>Paper ViT-L points</source>
        <translation>논문 ViT-L 지점</translation>
    </message>
    <message>
        <source>Show the paper&apos;s ViT-L 1024² figures: 1241 → 429 GFLOPs, 3.28 → 1.37 GB</source>
        <translation>논문의 ViT-L 1024² 수치 표시: 1241 → 429 GFLOPs, 3.28 → 1.37 GB</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>PNG 내보내기…</translation>
    </message>
    <message>
        <source>Save the three plots as one PNG image</source>
        <translation>세 그래프를 PNG 이미지 하나로 저장</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV 내보내기…</translation>
    </message>
    <message>
        <source>Save the points shown as CSV (reads back with File → Open benchmark CSV…)</source>
        <translation>표시된 지점을 CSV로 저장 (파일 → 벤치마크 CSV 열기…로 다시 읽을 수 있습니다)</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>연산량</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>최대 메모리</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>지연 시간</translation>
    </message>
    <message>
        <source>analytic GFLOPs per image (1 MAC = 1 FLOP)</source>
        <translation>이미지당 해석적 GFLOPs (1 MAC = 1 FLOP)</translation>
    </message>
    <message>
        <source>peak MB above weights + input</source>
        <translation>가중치+입력을 뺀 최대 메모리 (MB)</translation>
    </message>
    <message>
        <source>ms per image (median)</source>
        <translation>이미지당 ms (중앙값)</translation>
    </message>
    <message>
        <source>resolution (px, square input)</source>
        <translation>해상도 (px, 정사각형 입력)</translation>
    </message>
    <message>
        <source>benchmark run #%1</source>
        <translation>벤치마크 실행 #%1</translation>
    </message>
    <message>
        <source>linear = softmax at ≈ %1 px; linear lower above</source>
        <translation>≈ %1 px에서 linear = softmax, 그보다 크면 linear가 낮음</translation>
    </message>
    <message>
        <source>linear = softmax at ≈ %1 px; softmax lower above</source>
        <translation>≈ %1 px에서 linear = softmax, 그보다 크면 softmax가 낮음</translation>
    </message>
    <message>
        <source>no crossover: one resolution (%1 px), linear lower</source>
        <translation>교차점 없음: 해상도 하나(%1 px), linear가 낮음</translation>
    </message>
    <message>
        <source>no crossover in %1–%2 px: linear lower throughout</source>
        <translation>%1–%2 px에서 교차점 없음: linear가 항상 낮음</translation>
    </message>
    <message>
        <source>no crossover: one resolution (%1 px), softmax lower</source>
        <translation>교차점 없음: 해상도 하나(%1 px), softmax가 낮음</translation>
    </message>
    <message>
        <source>no crossover in %1–%2 px: softmax lower throughout</source>
        <translation>%1–%2 px에서 교차점 없음: softmax가 항상 낮음</translation>
    </message>
    <message>
        <source>no crossover: needs softmax and linear points at the same resolutions</source>
        <translation>교차점 없음: 같은 해상도의 softmax와 linear 지점이 필요합니다</translation>
    </message>
    <message>
        <source>crossover ≈ %1 px</source>
        <translation>교차점 ≈ %1 px</translation>
    </message>
    <message>
        <source>no crossover: linear lower</source>
        <translation>교차점 없음: linear가 낮음</translation>
    </message>
    <message>
        <source>no crossover: softmax lower</source>
        <translation>교차점 없음: softmax가 낮음</translation>
    </message>
    <message>
        <source>no crossover: no common points</source>
        <translation>교차점 없음: 공통 지점 없음</translation>
    </message>
    <message>
        <source>dashed: attention only</source>
        <translation>점선: 어텐션만</translation>
    </message>
    <message>
        <source>paper ViT-L 1024²</source>
        <translation>논문 ViT-L 1024²</translation>
    </message>
    <message>
        <source>softmax %1</source>
        <translation>softmax %1</translation>
    </message>
    <message>
        <source>softmax %1 GB</source>
        <translation>softmax %1 GB</translation>
    </message>
    <message>
        <source>linear %1</source>
        <translation>linear %1</translation>
    </message>
    <message>
        <source>linear %1 GB</source>
        <translation>linear %1 GB</translation>
    </message>
    <message>
        <source>no data: run a benchmark or open a CSV</source>
        <translation>데이터 없음: 벤치마크를 실행하거나 CSV를 여세요</translation>
    </message>
    <message>
        <source>No benchmark loaded.</source>
        <translation>불러온 벤치마크가 없습니다.</translation>
    </message>
    <message>
        <source>%1 · %2 points · %3</source>
        <translation>%1 · 지점 %2개 · %3</translation>
    </message>
    <message>
        <source>unknown model</source>
        <translation>알 수 없는 모델</translation>
    </message>
    <message>
        <source>&lt;p&gt;Run &lt;b&gt;adala bench scaling&lt;/b&gt; from the form, open an earlier benchmark run, or open a CSV written by &lt;code&gt;adala bench scaling --csv&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;위 양식에서 &lt;b&gt;adala bench scaling&lt;/b&gt;을 실행하거나, 이전 벤치마크 실행을 열거나, &lt;code&gt;adala bench scaling --csv&lt;/code&gt;로 만든 CSV를 여세요.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Crossover of linear and softmax&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;linear와 softmax의 교차점&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>연산량</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>메모리</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>지연 시간</translation>
    </message>
    <message>
        <source>%1 at %2 px: %3</source>
        <translation>%2 px의 %1: %3</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>실행하지 않음</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Not measured&lt;/b&gt;&lt;br&gt;%1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;측정하지 않은 지점&lt;/b&gt;&lt;br&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;At %1 px, linear vs softmax&lt;/b&gt;&lt;br&gt;GFLOPs %2 → %3, peak %4 → %5 MB, %6 → %7 ms/img&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1 px에서 softmax 대비 linear&lt;/b&gt;&lt;br&gt;GFLOPs %2 → %3, 최대 메모리 %4 → %5 MB, %6 → %7 ms/이미지&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;GFLOPs: analytic, 1 multiply-add = 1 FLOP (the paper&apos;s convention); solid = whole model, dashed = attention sub-layers + patch embed (the paper&apos;s count). Peak memory: RSS high-water mark above weights and input, a fresh process per point. Paper (ViT-L, 1024²): 1241 → 429 GFLOPs, 3.28 → 1.37 GB.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;GFLOPs: 해석적 계산, 곱셈-덧셈 1회 = 1 FLOP (논문의 관례). 실선 = 모델 전체, 점선 = 어텐션 하위 층 + 패치 임베딩 (논문의 집계 방식). 최대 메모리: 가중치와 입력을 뺀 RSS 최고치, 지점마다 새 프로세스에서 측정. 논문 (ViT-L, 1024²): 1241 → 429 GFLOPs, 3.28 → 1.37 GB.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Export the scaling plots</source>
        <translation>스케일링 그래프 내보내기</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>Could not export %1</source>
        <translation>%1(으)로 내보낼 수 없습니다</translation>
    </message>
    <message>
        <source>Export the scaling points</source>
        <translation>스케일링 지점 내보내기</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 표 (*.csv)</translation>
    </message>
    <message>
        <source>%1 px</source>
        <translation>%1 px</translation>
    </message>
    <message>
        <source>%1 px (load %2)</source>
        <translation>%1 px (부하 %2)</translation>
    </message>
    <message>
        <source> (medians only: no spread recorded, so no error bars to check it against)</source>
        <translation> (중앙값만: 분산이 기록되지 않아 오차 막대로 확인할 수 없음)</translation>
    </message>
    <message>
        <source>%1–%2 px</source>
        <translation>%1–%2 px</translation>
    </message>
    <message>
        <source>linear faster</source>
        <translation>linear가 더 빠름</translation>
    </message>
    <message>
        <source>softmax faster</source>
        <translation>softmax가 더 빠름</translation>
    </message>
    <message>
        <source>linear lower</source>
        <translation>linear가 더 낮음</translation>
    </message>
    <message>
        <source>softmax lower</source>
        <translation>softmax가 더 낮음</translation>
    </message>
    <message>
        <source>no crossover claimed: the intervals overlap at %1 px</source>
        <translation>교차점 주장 없음: %1 px에서 구간이 겹침</translation>
    </message>
    <message>
        <source>no crossover claimed: intervals overlap at every resolution (%1)</source>
        <translation>교차점 주장 없음: 모든 해상도에서 구간이 겹침 (%1)</translation>
    </message>
    <message>
        <source>%1 at every resolution, %2 (intervals separate)</source>
        <translation>모든 해상도에서 %1, %2 (구간 분리)</translation>
    </message>
    <message>
        <source>%1 from %2 px (intervals separate)</source>
        <translation>%2 px부터 %1 (구간 분리)</translation>
    </message>
    <message>
        <source>between %1 and %2 px the intervals overlap — no claim</source>
        <translation>%1–%2 px 사이는 구간이 겹침 — 주장 없음</translation>
    </message>
    <message>
        <source>at %1 the intervals overlap — no claim</source>
        <translation>%1에서 구간이 겹침 — 주장 없음</translation>
    </message>
    <message>
        <source>%1 at %2 (intervals separate)</source>
        <translation>%2에서 %1 (구간 분리)</translation>
    </message>
    <message>
        <source>no claim: intervals overlap</source>
        <translation>주장 없음: 구간이 겹침</translation>
    </message>
    <message>
        <source>no claim at %1 px: intervals overlap</source>
        <translation>%1 px에서 주장 없음: 구간이 겹침</translation>
    </message>
    <message>
        <source>%1 throughout</source>
        <translation>전 구간에서 %1</translation>
    </message>
    <message>
        <source>%1 from %2 px</source>
        <translation>%2 px부터 %1</translation>
    </message>
    <message>
        <source>%1 spread</source>
        <translation>%1 분산</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;Error bars: latency from the fastest to the slowest timed run over all rounds; peak memory from the lowest to the highest round. A crossover is claimed only where the intervals separate.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;오차 막대: 지연 시간은 모든 라운드에서 가장 빠른 측정부터 가장 느린 측정까지, 최대 메모리는 가장 낮은 라운드부터 가장 높은 라운드까지입니다. 교차점은 구간이 분리되는 곳에서만 주장합니다.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;No spread recorded (an older file or run): medians only, no error bars.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;분산이 기록되지 않음(이전 파일 또는 실행): 중앙값만 있고 오차 막대는 없습니다.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Load&lt;/b&gt; (1-minute average, %1 cores): %2 during the points&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;부하&lt;/b&gt; (1분 평균, 코어 %1개): 측정 중 %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 ~ %2</translation>
    </message>
    <message>
        <source>waiting for the first point…</source>
        <translation>첫 측정점을 기다리는 중…</translation>
    </message>
    <message>
        <source>Benchmark running: each point is drawn as soon as it is measured.</source>
        <translation>벤치마크 실행 중: 각 측정점은 측정되는 즉시 그려집니다.</translation>
    </message>
    <message>
        <source>&lt;p&gt;The benchmark is running: a resolution&apos;s points appear once all its rounds are measured.&lt;/p&gt;</source>
        <translation>&lt;p&gt;벤치마크 실행 중: 각 해상도의 측정점은 모든 라운드가 측정되면 나타납니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The benchmark timed a reference matmul before and after every point; its rate moved by more than 25 % during the run, so the machine&apos;s speed changed and the figures are not to be trusted</source>
        <translation>벤치마크는 각 지점 앞뒤로 기준 행렬곱을 측정했습니다; 실행 중 그 속도가 25 % 넘게 변했으므로 기계 속도가 바뀌었고 수치를 믿을 수 없습니다</translation>
    </message>
    <message>
        <source>%1: figures not to be trusted</source>
        <translation>%1: 믿을 수 없는 수치</translation>
    </message>
    <message>
        <source>%1 · batch %2</source>
        <translation>%1 · 배치 %2</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Matmul rate&lt;/b&gt; (reference, read before and after every point): %1 to %2 GFLOP/s&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;행렬곱 속도&lt;/b&gt; (기준, 각 지점 앞뒤로 측정): %1 ~ %2 GFLOP/s&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>adala::widgets::SegmentationResults</name>
    <message>
        <source>%1: cannot read the image (%2).</source>
        <translation>%1: 이미지를 읽을 수 없습니다 (%2).</translation>
    </message>
    <message>
        <source>%1 is not an 8-bit single-channel PNG of class indices (its pixels are %2-bit %3).</source>
        <translation>%1은(는) 클래스 인덱스의 8비트 단일 채널 PNG가 아닙니다 (픽셀이 %2비트 %3입니다).</translation>
    </message>
    <message>
        <source>grey</source>
        <translation>회색조</translation>
    </message>
    <message>
        <source>colour</source>
        <translation>컬러</translation>
    </message>
    <message>
        <source>%1 is %2 × %3 pixels, but its image %4 is %5 × %6.</source>
        <translation>%1은(는) %2 × %3 픽셀이지만 해당 이미지 %4은(는) %5 × %6 픽셀입니다.</translation>
    </message>
    <message>
        <source>%1: pixel (%2, %3) holds class %4, but there are %5 classes (0 to %6) and the ignore index is %7.</source>
        <translation>%1: 픽셀 (%2, %3)의 값이 클래스 %4이지만, 클래스는 %5개(0~%6)이고 무시 인덱스는 %7입니다.</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1은(는) 폴더가 아닙니다.</translation>
    </message>
    <message>
        <source>%1 does not exist: %2 is not a segmentation results folder.</source>
        <translation>%1이(가) 없습니다: %2은(는) 분할 결과 폴더가 아닙니다.</translation>
    </message>
    <message>
        <source>%1: cannot open (%2).</source>
        <translation>%1: 열 수 없습니다 (%2).</translation>
    </message>
    <message>
        <source>%1.color &quot;%2&quot; is not a colour (#rrggbb).</source>
        <translation>%1.color &quot;%2&quot;은(는) 색상(#rrggbb)이 아닙니다.</translation>
    </message>
    <message>
        <source>%1 does not exist (%2 in %3).</source>
        <translation>%1이(가) 없습니다 (%3의 %2).</translation>
    </message>
    <message>
        <source>%1: there is no image %2 (the index has %3).</source>
        <translation>%1: 이미지 %2이(가) 없습니다 (인덱스에는 %3개가 있습니다).</translation>
    </message>
</context>
<context>
    <name>adala::widgets::SegmentationViewer</name>
    <message>
        <source>Head:</source>
        <translation>헤드:</translation>
    </message>
    <message>
        <source>Segmentation head whose results are shown (one results folder each)</source>
        <translation>결과를 표시할 분할 헤드 (헤드마다 결과 폴더 하나)</translation>
    </message>
    <message>
        <source>Order:</source>
        <translation>순서:</translation>
    </message>
    <message>
        <source>file order</source>
        <translation>파일 순서</translation>
    </message>
    <message>
        <source>disagreement ↓</source>
        <translation>불일치 ↓</translation>
    </message>
    <message>
        <source>student mIoU ↑</source>
        <translation>학생 mIoU ↑</translation>
    </message>
    <message>
        <source>Order to step through the images in: worst cases first</source>
        <translation>이미지를 넘겨 볼 순서: 가장 나쁜 경우부터</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 이전</translation>
    </message>
    <message>
        <source>Previous image (Left, Page Up)</source>
        <translation>이전 이미지 (Left, Page Up)</translation>
    </message>
    <message>
        <source>Position of the image in the chosen order</source>
        <translation>선택한 순서에서 이미지의 위치</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>다음 ▶</translation>
    </message>
    <message>
        <source>Next image (Right, Page Down)</source>
        <translation>다음 이미지 (Right, Page Down)</translation>
    </message>
    <message>
        <source>Open a segmentation results folder (File → Open segmentation results…).</source>
        <translation>분할 결과 폴더를 여세요 (파일 → 분할 결과 열기…).</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>Ground truth</source>
        <translation>정답</translation>
    </message>
    <message>
        <source>Teacher</source>
        <translation>교사</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>학생</translation>
    </message>
    <message>
        <source>Disagreement</source>
        <translation>불일치</translation>
    </message>
    <message>
        <source>View</source>
        <translation>보기</translation>
    </message>
    <message>
        <source>Mask opacity:</source>
        <translation>마스크 불투명도:</translation>
    </message>
    <message>
        <source>Opacity of the masks over the image (0: the image alone)</source>
        <translation>이미지 위 마스크의 불투명도 (0: 이미지만)</translation>
    </message>
    <message>
        <source>Zoom:</source>
        <translation>확대:</translation>
    </message>
    <message>
        <source>−</source>
        <translation>−</translation>
    </message>
    <message>
        <source>Zoom out (-)</source>
        <translation>축소 (-)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>맞추기</translation>
    </message>
    <message>
        <source>Fit the image to the panes (0, or double-click a pane)</source>
        <translation>이미지를 창에 맞추기 (0, 또는 창을 더블클릭)</translation>
    </message>
    <message>
        <source>+</source>
        <translation>+</translation>
    </message>
    <message>
        <source>Zoom in (+, or Ctrl + wheel over a pane); drag a pane to pan</source>
        <translation>확대 (+, 또는 창 위에서 Ctrl + 휠); 창을 끌어 이동</translation>
    </message>
    <message>
        <source>Disagreement map</source>
        <translation>불일치 지도</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>클래스</translation>
    </message>
    <message>
        <source>IoU over the whole split</source>
        <translation>평가 세트 전체의 IoU</translation>
    </message>
    <message>
        <source>IoU on this image</source>
        <translation>이 이미지의 IoU</translation>
    </message>
    <message>
        <source>Which per-class IoU the table shows</source>
        <translation>표에 표시할 클래스별 IoU</translation>
    </message>
    <message>
        <source>Point at a pane to read the classes under the cursor.</source>
        <translation>창을 가리키면 커서 아래의 클래스를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;Left / Right, Page Up / Page Down&lt;/td&gt;&lt;td&gt;segmentation: previous / next image&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Home / End&lt;/td&gt;&lt;td&gt;segmentation: first / last image&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;+ / - / 0, Ctrl + wheel&lt;/td&gt;&lt;td&gt;segmentation: zoom in / out / fit (all panes)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;drag&lt;/td&gt;&lt;td&gt;segmentation: pan all panes&lt;/td&gt;&lt;/tr&gt;</source>
        <translation>&lt;tr&gt;&lt;td&gt;Left / Right, Page Up / Page Down&lt;/td&gt;&lt;td&gt;분할: 이전 / 다음 이미지&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Home / End&lt;/td&gt;&lt;td&gt;분할: 처음 / 마지막 이미지&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;+ / - / 0, Ctrl + wheel&lt;/td&gt;&lt;td&gt;분할: 확대 / 축소 / 맞추기 (모든 창)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;drag&lt;/td&gt;&lt;td&gt;분할: 모든 창 이동&lt;/td&gt;&lt;/tr&gt;</translation>
    </message>
    <message>
        <source>No segmentation results in %1.</source>
        <translation>%1에 분할 결과가 없습니다.</translation>
    </message>
    <message>
        <source>of %1</source>
        <translation>/ %1</translation>
    </message>
    <message>
        <source>Image %1</source>
        <translation>이미지 %1</translation>
    </message>
    <message>
        <source>Teacher · mIoU %1</source>
        <translation>교사 · mIoU %1</translation>
    </message>
    <message>
        <source>Student · mIoU %1</source>
        <translation>학생 · mIoU %1</translation>
    </message>
    <message>
        <source>Disagreement · %1 %</source>
        <translation>불일치 · %1 %</translation>
    </message>
    <message>
        <source>%1 head · %2 images</source>
        <translation>%1 헤드 · 이미지 %2개</translation>
    </message>
    <message>
        <source>%1 head · %2 split · %3 images</source>
        <translation>%1 헤드 · %2 세트 · 이미지 %3개</translation>
    </message>
    <message>
        <source>IoU on image %1 (— : class absent)</source>
        <translation>이미지 %1의 IoU (— : 클래스 없음)</translation>
    </message>
    <message>
        <source>IoU over all %1 images (— : class absent)</source>
        <translation>이미지 %1개 전체의 IoU (— : 클래스 없음)</translation>
    </message>
    <message>
        <source>index.json records no per-class IoU over the split.</source>
        <translation>index.json에 세트 전체의 클래스별 IoU가 없습니다.</translation>
    </message>
    <message>
        <source>zoom %1×</source>
        <translation>확대 %1×</translation>
    </message>
    <message>
        <source>fit (%1×)</source>
        <translation>맞춤 (%1×)</translation>
    </message>
    <message>
        <source>ignore (%1)</source>
        <translation>무시 (%1)</translation>
    </message>
    <message>
        <source>class %1</source>
        <translation>클래스 %1</translation>
    </message>
    <message>
        <source>x %1, y %2</source>
        <translation>x %1, y %2</translation>
    </message>
    <message>
        <source>Pixel (%1, %2): truth %3 · teacher %4 · student %5 — %6</source>
        <translation>픽셀 (%1, %2): 정답 %3 · 교사 %4 · 학생 %5 — %6</translation>
    </message>
    <message>
        <source>%1  —  teacher mIoU %2 · student mIoU %3 · student − teacher %4  —  pixel accuracy: teacher %5 % · student %6 %</source>
        <translation>%1  —  교사 mIoU %2 · 학생 mIoU %3 · 학생 − 교사 %4  —  픽셀 정확도: 교사 %5 % · 학생 %6 %</translation>
    </message>
    <message>
        <source>Image %1 (%2 of %3): teacher mIoU %4 · student mIoU %5 · student − teacher %6 · they disagree on %7 % of the labelled pixels</source>
        <translation>이미지 %1 (%3개 중 %2번째): 교사 mIoU %4 · 학생 mIoU %5 · 학생 − 교사 %6 · 레이블된 픽셀의 %7 %에서 서로 다름</translation>
    </message>
    <message>
        <source>training</source>
        <translation>학습</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>검증</translation>
    </message>
    <message>
        <source>test</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>student IoU deficit ↓ (teacher − student)</source>
        <translation>학생 IoU 부족분 ↓ (교사 − 학생)</translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation>해상도</translation>
    </message>
    <message>
        <source>Side of the square evaluation images, in pixels</source>
        <translation>정사각형 평가 이미지의 한 변 길이 (픽셀)</translation>
    </message>
    <message>
        <source>%1 head</source>
        <translation>%1 헤드</translation>
    </message>
    <message>
        <source>%1×%1</source>
        <translation>%1×%1</translation>
    </message>
    <message>
        <source>backbone frozen</source>
        <translation>백본 고정</translation>
    </message>
    <message>
        <source>lr ×%1</source>
        <translation>학습률 ×%1</translation>
    </message>
    <message>
        <source>layer decay %1</source>
        <translation>레이어 감쇠 %1</translation>
    </message>
    <message>
        <source>backbone fine-tuned</source>
        <translation>백본 미세 조정</translation>
    </message>
    <message>
        <source>backbone fine-tuned (%1)</source>
        <translation>백본 미세 조정 (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n training scene(s)</source>
        <translation>
            <numerusform>학습 장면 %n개</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n validation scene(s) of %1 to %2 garments</source>
        <translation>
            <numerusform>의류 %1–%2개짜리 검증 장면 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>The paper&apos;s numbers (%1 at %2 × %2 pixels), for comparison: not measured here.</source>
        <translation>논문의 수치 (%1, %2 × %2 픽셀), 비교용: 여기서 측정한 값이 아닙니다.</translation>
    </message>
    <message>
        <source>paper: %1</source>
        <translation>논문: %1</translation>
    </message>
    <message>
        <source>student: %1</source>
        <translation>학생: %1</translation>
    </message>
    <message numerus="yes">
        <source>head probed %n epoch(s) first</source>
        <translation>
            <numerusform>헤드만 먼저 %n 에포크 학습</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>adala::widgets::SeriesControls</name>
    <message>
        <source>Smoothing</source>
        <translation>평활화</translation>
    </message>
    <message>
        <source>Exponential moving average of the curves (0: raw values); the CSV export keeps the raw values</source>
        <translation>곡선의 지수 이동 평균(0: 원래 값). CSV 내보내기에는 원래 값이 그대로 저장됩니다</translation>
    </message>
    <message>
        <source>x axis</source>
        <translation>x축</translation>
    </message>
    <message>
        <source>step</source>
        <translation>스텝</translation>
    </message>
    <message>
        <source>wall time</source>
        <translation>경과 시간</translation>
    </message>
    <message>
        <source>Steps, or the wall-clock time since the run&apos;s first logged step</source>
        <translation>스텝, 또는 실행의 첫 기록 스텝 이후 실제 경과 시간</translation>
    </message>
    <message>
        <source> (smoothed)</source>
        <translation> (평활화됨)</translation>
    </message>
    <message>
        <source>wall time since the run&apos;s first logged step (h:mm:ss)</source>
        <translation>실행의 첫 기록 스텝 이후 경과 시간 (h:mm:ss)</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>스텝 %1</translation>
    </message>
    <message>
        <source>time %1:%2:%3</source>
        <translation>시간 %1:%2:%3</translation>
    </message>
</context>
<context>
    <name>adala::widgets::StageLauncher</name>
    <message>
        <source>(unsaved experiment)</source>
        <translation>(저장되지 않은 실험)</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>열기…</translation>
    </message>
    <message>
        <source>Open an experiment file (Ctrl+O)</source>
        <translation>실험 파일 열기 (Ctrl+O)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>experiment</source>
        <translation>실험</translation>
    </message>
    <message>
        <source>Run name (no &apos;/&apos;)</source>
        <translation>실행 이름 (&apos;/&apos; 제외)</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>시드</translation>
    </message>
    <message>
        <source>Random seed of weights and batches</source>
        <translation>가중치와 배치의 난수 시드</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>스레드</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>모든 코어</translation>
    </message>
    <message>
        <source>LibTorch threads (0 = all cores)</source>
        <translation>LibTorch 스레드 수 (0 = 모든 코어)</translation>
    </message>
    <message>
        <source>Model preset</source>
        <translation>모델 프리셋</translation>
    </message>
    <message>
        <source>Teacher weights</source>
        <translation>교사 가중치</translation>
    </message>
    <message>
        <source>train Stage 0</source>
        <translation>0단계에서 학습</translation>
    </message>
    <message>
        <source>Pretrained softmax teacher (.safetensors); empty: Stage 0 trains one</source>
        <translation>사전 학습된 소프트맥스 교사 모델 (.safetensors); 비워 두면 0단계에서 학습합니다</translation>
    </message>
    <message>
        <source>Runs folder</source>
        <translation>실행 폴더</translation>
    </message>
    <message>
        <source>Where run folders (weights, checkpoints) go</source>
        <translation>실행 폴더(가중치, 체크포인트)를 저장할 위치</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>실험</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>실행 %1</translation>
    </message>
    <message>
        <source>default</source>
        <translation>기본값</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>시작</translation>
    </message>
    <message>
        <source>Start the selected stages (Ctrl+Return)</source>
        <translation>선택한 단계 시작 (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시 정지</translation>
    </message>
    <message>
        <source>Pause or resume after the current step (Ctrl+P)</source>
        <translation>현재 스텝이 끝나면 일시 정지 또는 계속 (Ctrl+P)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop after the current step; the run is checkpointed and can be resumed (Ctrl+.)</source>
        <translation>현재 스텝이 끝나면 멈춥니다; 체크포인트가 저장되어 이어서 실행할 수 있습니다 (Ctrl+.)</translation>
    </message>
    <message>
        <source>%v / %m</source>
        <translation>%v / %m</translation>
    </message>
    <message>
        <source>Run log</source>
        <translation>실행 로그</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1을(를) 열 수 없습니다: %2</translation>
    </message>
    <message>
        <source>%1 is not a JSON experiment: %2 (offset %3)</source>
        <translation>%1은(는) JSON 실험 파일이 아닙니다: %2 (위치 %3)</translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation>%1을(를) 불러왔습니다</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1에 저장했습니다</translation>
    </message>
    <message>
        <source>select at least one stage to run</source>
        <translation>실행할 단계를 하나 이상 선택하세요</translation>
    </message>
    <message>
        <source>✓ The experiment is valid.</source>
        <translation>✓ 실험 설정이 올바릅니다.</translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>⚠ %1: %2</source>
        <translation>⚠ %1: %2</translation>
    </message>
    <message>
        <source>Fix %1 first: %2</source>
        <translation>먼저 %1을(를) 고치세요: %2</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>이어서 실행</translation>
    </message>
    <message>
        <source>Run %1 started in %2</source>
        <translation>실행 %1이(가) %2에서 시작되었습니다</translation>
    </message>
    <message>
        <source>resumed at step %1</source>
        <translation>스텝 %1에서 이어서 실행</translation>
    </message>
    <message>
        <source>started</source>
        <translation>시작됨</translation>
    </message>
    <message>
        <source>done in %1</source>
        <translation>%1 만에 완료</translation>
    </message>
    <message>
        <source>interrupted at step %1</source>
        <translation>스텝 %1에서 중단됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>실행 %1: %2</translation>
    </message>
    <message>
        <source>Run %1: %2 — %3</source>
        <translation>실행 %1: %2 — %3</translation>
    </message>
    <message>
        <source>Paused (after the current step).</source>
        <translation>일시 정지했습니다 (현재 스텝 이후).</translation>
    </message>
    <message>
        <source>Resumed.</source>
        <translation>계속합니다.</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>에포크</translation>
    </message>
    <message>
        <source>max steps</source>
        <translation>최대 스텝</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>배치 크기</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>학습률</translation>
    </message>
    <message>
        <source>warm-up steps</source>
        <translation>워밍업 스텝</translation>
    </message>
    <message>
        <source>weight decay</source>
        <translation>가중치 감쇠</translation>
    </message>
    <message>
        <source>gradient clip</source>
        <translation>그래디언트 클리핑</translation>
    </message>
    <message>
        <source>log every</source>
        <translation>기록 간격</translation>
    </message>
    <message>
        <source>checkpoint every</source>
        <translation>체크포인트 간격</translation>
    </message>
    <message>
        <source>0 teacher</source>
        <translation>0 교사</translation>
    </message>
    <message>
        <source>1 attention</source>
        <translation>1 어텐션</translation>
    </message>
    <message>
        <source>2 feature</source>
        <translation>2 특징</translation>
    </message>
    <message>
        <source>3 fine-tune</source>
        <translation>3 미세 조정</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
    <message>
        <source>not in this run</source>
        <translation>이번 실행에 없음</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>데이터</translation>
    </message>
    <message>
        <source>done in %1 · data wait %2%</source>
        <translation>%1 만에 완료 · 데이터 대기 %2%</translation>
    </message>
    <message>
        <source>ETA %1 · %2 img/s · data %3% · loss %4</source>
        <translation>남은 시간 %1 · 초당 %2장 · 데이터 대기 %3% · 손실 %4</translation>
    </message>
    <message>
        <source>Processes:</source>
        <translation>프로세스:</translation>
    </message>
    <message>
        <source>Data-parallel worker processes on this machine (adala run --nproc). 1 trains inside the workbench; more start that many `adala run` processes, each training on its share of every batch, with the plots showing the metrics averaged over them. Such a run cannot be paused; Cancel checkpoints it and it resumes from the run list.</source>
        <translation>이 컴퓨터에서 실행할 데이터 병렬 워커 프로세스 수입니다(adala run --nproc). 1이면 워크벤치 안에서 학습하고, 그보다 크면 그 수만큼 `adala run` 프로세스를 시작해 각 프로세스가 매 배치에서 자기 몫을 학습하며, 그래프에는 모든 프로세스의 평균 지표가 표시됩니다. 이런 실행은 일시 정지할 수 없습니다. 취소하면 체크포인트가 저장되고 실행 목록에서 이어서 실행할 수 있습니다.</translation>
    </message>
    <message>
        <source>A run on %1 processes cannot be paused: its processes wait for each other at every step. Cancel it instead (it checkpoints) and resume it from the run list.</source>
        <translation>프로세스 %1개로 실행 중인 작업은 일시 정지할 수 없습니다. 프로세스들이 매 단계마다 서로를 기다리기 때문입니다. 대신 취소하고(체크포인트가 저장됩니다) 실행 목록에서 이어서 실행하세요.</translation>
    </message>
    <message>
        <source>run #%1&apos;s recorded config</source>
        <translation>실행 #%1에 기록된 설정</translation>
    </message>
    <message>
        <source>The configuration run #%1 was started with; resuming it uses this one.</source>
        <translation>실행 #%1이 시작될 때의 설정입니다. 이어서 실행하면 이 설정을 씁니다.</translation>
    </message>
    <message>
        <source>paused at step %1 of %2</source>
        <translation>스텝 %1/%2에서 일시 정지됨</translation>
    </message>
    <message>
        <source>Attention &amp;plan</source>
        <translation>어텐션 계획(&amp;P)</translation>
    </message>
</context>
<context>
    <name>adala::widgets::TrainingCurvesPlot</name>
    <message>
        <source>#%1 %2</source>
        <translation>#%1 %2</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>Open a run (or compare several) to see every stage&apos;s loss and learning rate.</source>
        <translation>실행을 열면(또는 여러 실행을 비교하면) 모든 단계의 손실과 학습률이 표시됩니다.</translation>
    </message>
    <message>
        <source>These runs logged no loss or learning rate.</source>
        <translation>이 실행들에는 기록된 손실이나 학습률이 없습니다.</translation>
    </message>
    <message>
        <source>Loss (log axis; training accuracy dashed, right axis, where the stage logs it) and learning rate of every stage, by step. Drag to pan, wheel to zoom, double-click to fit.</source>
        <translation>모든 단계의 스텝별 손실(로그 축, 학습 정확도를 기록한 단계는 오른쪽 축에 점선으로 표시)과 학습률. 드래그로 이동, 휠로 확대/축소, 더블클릭으로 전체 보기.</translation>
    </message>
    <message>
        <source>%1 · loss</source>
        <translation>%1 · 손실</translation>
    </message>
    <message>
        <source>%1 · learning rate</source>
        <translation>%1 · 학습률</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>손실</translation>
    </message>
    <message>
        <source>%1 · training accuracy</source>
        <translation>%1 · 학습 정확도</translation>
    </message>
    <message>
        <source>training accuracy</source>
        <translation>학습 정확도</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>학습률</translation>
    </message>
    <message>
        <source>Loss (log axis; training accuracy dashed, right axis, where the stage logs it) and learning rate of every stage, by wall time (steps logged without one are left out). Drag to pan, wheel to zoom, double-click to fit.</source>
        <translation>모든 단계의 경과 시간별 손실(로그 축, 학습 정확도를 기록한 단계는 오른쪽 축에 점선으로 표시)과 학습률(경과 시간 없이 기록된 스텝은 제외). 드래그로 이동, 휠로 확대/축소, 더블클릭으로 전체 보기.</translation>
    </message>
</context>
<context>
    <name>adala::widgets::ZoomImagePane</name>
    <message>
        <source>no image</source>
        <translation>이미지 없음</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>AdaLA Workbench</source>
        <translation>AdaLA 워크벤치</translation>
    </message>
    <message>
        <source>AdaLA Workbench: adapt a softmax ViT into a linear-attention ViT and inspect every step.</source>
        <translation>AdaLA 워크벤치: 소프트맥스 ViT를 선형 어텐션 ViT로 바꾸고 모든 단계를 살펴봅니다.</translation>
    </message>
    <message>
        <source>Experiment file to open.</source>
        <translation>열 실험 파일.</translation>
    </message>
    <message>
        <source>Run database (default: %1).</source>
        <translation>실행 데이터베이스 (기본값: %1).</translation>
    </message>
    <message>
        <source>Open this experiment and start it.</source>
        <translation>이 실험을 열고 시작합니다.</translation>
    </message>
    <message>
        <source>Stages to run, e.g. 0,1,2,3.</source>
        <translation>실행할 단계, 예: 0,1,2,3.</translation>
    </message>
    <message>
        <source>Show this recorded run.</source>
        <translation>기록된 이 실행을 표시합니다.</translation>
    </message>
    <message>
        <source>Overlay these recorded runs.</source>
        <translation>기록된 이 실행들을 겹쳐 표시합니다.</translation>
    </message>
    <message>
        <source>Inspect the attention of this checkpoint.</source>
        <translation>이 체크포인트의 어텐션을 검사합니다.</translation>
    </message>
    <message>
        <source>Image file for the inspector.</source>
        <translation>검사기에 쓸 이미지 파일.</translation>
    </message>
    <message>
        <source>Inspector input: 0 = the model&apos;s size, -1 = the image&apos;s, or a square side.</source>
        <translation>검사기 입력: 0 = 모델 크기, -1 = 이미지 크기, 또는 정사각형 한 변의 길이.</translation>
    </message>
    <message>
        <source>Inspector block.</source>
        <translation>검사기 블록.</translation>
    </message>
    <message>
        <source>Inspector head.</source>
        <translation>검사기 헤드.</translation>
    </message>
    <message>
        <source>Inspector query patch.</source>
        <translation>검사기 쿼리 패치.</translation>
    </message>
    <message>
        <source>system, light or dark.</source>
        <translation>system(시스템), light(밝게) 또는 dark(어둡게).</translation>
    </message>
    <message>
        <source>LibTorch threads (default: all cores).</source>
        <translation>LibTorch 스레드 수 (기본값: 모든 코어).</translation>
    </message>
    <message>
        <source>Close after this many seconds (a running job is cancelled and left resumable).</source>
        <translation>지정한 시간(초)이 지나면 닫습니다 (진행 중인 작업은 취소되며 나중에 이어서 실행할 수 있습니다).</translation>
    </message>
    <message>
        <source>Close once the started run is over.</source>
        <translation>시작한 실행이 끝나면 닫습니다.</translation>
    </message>
    <message>
        <source>Benchmark: run this experiment and print the longest GUI-thread stall during Stage 2.</source>
        <translation>벤치마크: 이 실험을 실행하고 2단계 동안 GUI 스레드가 가장 오래 멈춘 시간을 출력합니다.</translation>
    </message>
    <message>
        <source>Show these segmentation results (a results folder, a folder of them, or a run folder).</source>
        <translation>이 분할 결과를 표시합니다 (결과 폴더, 결과 폴더들이 든 폴더, 또는 실행 폴더).</translation>
    </message>
    <message>
        <source>Image the segmentation viewer shows first (1 = the first).</source>
        <translation>분할 뷰어가 처음 표시할 이미지 (1 = 첫 번째).</translation>
    </message>
    <message>
        <source>Plot this CSV of adala bench scaling --csv in the Scaling tab.</source>
        <translation>adala bench scaling --csv로 만든 이 CSV를 스케일링 탭에 그립니다.</translation>
    </message>
    <message>
        <source>Dataset item for the inspector.</source>
        <translation>인스펙터의 데이터셋 항목.</translation>
    </message>
    <message>
        <source>The inspector&apos;s dataset: class folders, an image folder or list, or a run&apos;s config.json (default: Fashion-MNIST&apos;s test split).</source>
        <translation>인스펙터의 데이터셋: 클래스 폴더, 이미지 폴더나 목록, 또는 실행의 config.json (기본값: Fashion-MNIST 테스트 분할).</translation>
    </message>
    <message>
        <source>Inspector forward pass: fp32 or bf16.</source>
        <translation>인스펙터 순전파: fp32 또는 bf16.</translation>
    </message>
    <message>
        <source>Inspector colour scale: shared, per-pane, log, or a range min..max.</source>
        <translation>검사기 색 눈금: shared(공통), per-pane(창별), log(로그) 또는 범위 min..max.</translation>
    </message>
    <message>
        <source>Inspector view: maps (one block and head), rollout, or grid (blocks × heads).</source>
        <translation>검사기 보기: maps(블록과 헤드 하나), rollout(롤아웃) 또는 grid(블록 × 헤드).</translation>
    </message>
    <message>
        <source>Write the inspector&apos;s figure (PNG or PDF) once its maps are drawn.</source>
        <translation>맵이 그려지면 검사기 그림(PNG 또는 PDF)을 저장합니다.</translation>
    </message>
    <message>
        <source>Central tab to show: summary, plot, health, inspector, scaling, features or plans.</source>
        <translation>표시할 중앙 탭: summary, plot, health, inspector, scaling, features 또는 plans.</translation>
    </message>
</context>
</TS>
